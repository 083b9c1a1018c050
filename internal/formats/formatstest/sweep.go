package formatstest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
)

// SweepCell is one file of a synthetic vLLM bench serve sweep: the mean
// prompt length it sent, its --max-concurrency and the numbers it reports.
type SweepCell struct {
	Prompt, Concurrency int
}

// TotalTPS is the output throughput the cell's file reports: distinct for
// every cell, so a test can tell each cell's numbers apart.
func (c SweepCell) TotalTPS() float64 { return float64(100*c.Concurrency) + float64(c.Prompt)/1000 }

// TTFTms is the median time to first token the cell's file reports.
func (c SweepCell) TTFTms() float64 { return 40 + float64(c.Prompt)/100 + float64(c.Concurrency) }

// VLLMSweep writes the files a sweep script leaves: one vLLM `bench serve`
// result per prompt length × concurrency, made from the synthetic sample
// (testdata/formats/other-tools/vllm_bench_serve_synth_concurrency.json)
// with model as model_id, named like "vllm-p1000-c4.json".
func VLLMSweep(t testing.TB, model string, prompts, concurrencies []int) []archive.File {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(here), "../../../testdata/formats/other-tools/vllm_bench_serve_synth_concurrency.json"))
	if err != nil {
		t.Fatal(err)
	}
	var files []archive.File
	for _, p := range prompts {
		for _, c := range concurrencies {
			files = append(files, archive.File{Name: fmt.Sprintf("vllm-p%d-c%d.json", p, c), Data: SweepFile(t, raw, model, SweepCell{p, c})})
		}
	}
	return files
}

// SweepFile rewrites the sample raw as the result of one cell.
func SweepFile(t testing.TB, raw []byte, model string, c SweepCell) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	n := 2 * c.Concurrency
	doc["model_id"], doc["tokenizer_id"] = model, model
	doc["max_concurrency"], doc["max_concurrent_requests"] = c.Concurrency, c.Concurrency
	doc["num_prompts"], doc["completed"] = n, n
	doc["total_input_tokens"] = c.Prompt * n
	doc["total_output_tokens"] = 128 * n
	doc["output_throughput"] = c.TotalTPS()
	doc["median_ttft_ms"] = c.TTFTms()
	delete(doc, "latencies")
	delete(doc, "queue_times")
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
