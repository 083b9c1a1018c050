package formats_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// Every sample of vLLM, SGLang and llama-bench reaches its parser through
// detection, including the ones only lenient reading can split.
func TestOtherToolsDetected(t *testing.T) {
	dir := "../../testdata/formats/other-tools"
	for name, want := range map[string]string{
		"vllm_bench_serve_synth_concurrency.json": "vllm-bench-serve",
		"sglang_bench_serving_latest.jsonl":       "sglang-bench-serving", // bare Infinity
		"llama_bench.json":                        "llama-bench",
		"llama_bench.jsonl":                       "llama-bench",
	} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		p, err := formats.Parse(b)
		if err != nil || p.Format != want {
			t.Errorf("%s: %v, %v; want %s", name, p, err, want)
		}
		if strings.HasSuffix(name, ".json") && name[0] == 'l' {
			// The crashed run's unterminated array is detected too.
			cut := strings.TrimSpace(string(b))
			if p, err := formats.Parse([]byte(cut[:len(cut)-1])); err != nil || p.Format != want {
				t.Errorf("%s without ]: %v", name, err)
			}
		}
	}
	for name, key := range map[string]string{
		"vllm_bench_serve.json":      "problem.formats.rate_driven",
		"sglang_bench_serving.jsonl": "problem.formats.rate_driven",
	} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		_, err := formats.Parse(b)
		if pe, ok := problem.As(err); !ok || pe.Problems[0].Key != key {
			t.Errorf("%s: %v, want %s", name, err, key)
		}
	}
}

// Lenient reading is for other tools only: an llm-inference-bench file
// with a NaN is still refused naming it, and unknown JSON Lines stay
// unknown.
func TestLenientOnlyForOtherTools(t *testing.T) {
	_, err := formats.Parse([]byte(`{"metadata":{"version":"0.7.8"},"results":[{"aggregate_tps":NaN}]}`))
	if pe, ok := problem.As(err); !ok || pe.Problems[0].Key != "problem.nonfinite" {
		t.Errorf("llmbench NaN: %v", err)
	}
	_, err = formats.Parse([]byte("{\"a\":1}\n{\"a\":2}\n"))
	if pe, ok := problem.As(err); !ok || pe.Problems[0].Key != "problem.unknown_format" {
		t.Errorf("unknown JSONL: %v", err)
	}
}
