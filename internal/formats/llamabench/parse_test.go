package llamabench_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/llamabench"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

const samples = "../../../testdata/formats/other-tools"

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(samples, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func parse(t *testing.T, data []byte) (*run.Parsed, map[int]run.DecodeCell, map[int]run.PrefillRow) {
	t.Helper()
	p, err := llamabench.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	prefill, decode := status.Derive(p)
	cells, rows := map[int]run.DecodeCell{}, map[int]run.PrefillRow{}
	for _, c := range decode {
		if c.Concurrency != 1 {
			t.Errorf("cell at concurrency %d", c.Concurrency)
		}
		cells[c.Context] = c
	}
	for _, r := range prefill {
		rows[r.Context] = r
	}
	return p, cells, rows
}

func near(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if got == nil || fmt.Sprintf("%.4f", *got) != fmt.Sprintf("%.4f", want) {
		t.Errorf("%s = %v, want %.4f", name, got, want)
	}
}

// tests returns the JSON sample's two tests (pp512, tg128) as maps.
func tests(t *testing.T) []map[string]any {
	var list []map[string]any
	if err := json.Unmarshal(read(t, "llama_bench.json"), &list); err != nil {
		t.Fatal(err)
	}
	return list
}

func jsonl(recs ...map[string]any) []byte {
	var b strings.Builder
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(line)
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

func with(r map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range r {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestJSONSample(t *testing.T) {
	p, cells, rows := parse(t, read(t, "llama_bench.json"))
	c := cells[0] // tg128 at depth 0
	if len(cells) != 1 || c.Status != run.Valid {
		t.Fatalf("cells = %+v", cells)
	}
	near(t, "total tok/s", c.TotalTPS, 118.881588)
	near(t, "per-request tok/s", c.PerRequestTPS, 118.881588)
	near(t, "TBT ms (1000/avg_ts)", c.TBTms, 1000/118.881588)
	near(t, "seconds (Σ samples_ns)", c.MeasuredS, 5.3838394)
	if *c.Completed != 5 || *c.OutputTokens != 640 || c.TTFTms != nil {
		t.Errorf("completed %d, output tokens %d, ttft %v", *c.Completed, *c.OutputTokens, c.TTFTms)
	}
	r := rows[512] // pp512
	near(t, "prefill tok/s", r.PromptTPS, 7100.002165)
	near(t, "prefill TTFT ms (avg_ns)", r.TTFTms, 72.13564)
	if len(rows) != 1 || r.Status != run.Valid {
		t.Errorf("prefill rows = %+v", rows)
	}
	want := run.Engine{Name: "llama.cpp", Version: "b5163", Build: "8cf427ff", Backend: "CUDA", Quantization: "Q4_K - Medium"}
	if p.Engine != want || p.Hardware.GPUName != "NVIDIA GeForce RTX 4080" || p.Hardware.Type != run.DiscreteGPU ||
		p.Hardware.CPUName != "AMD Ryzen 7 7800X3D 8-Core Processor" || p.Model.ServedName != "Qwen2.5-7B-Instruct-Q4_K_M" {
		t.Errorf("facts: engine %+v hardware %+v model %+v", p.Engine, p.Hardware, p.Model)
	}
	if !slices.Equal(p.Notes, []string{sweep.NoteTBTFromMeanRate}) || p.MeasuredAt != "2025-04-24T11:58:50Z" {
		t.Errorf("notes %v, measured at %q", p.Notes, p.MeasuredAt)
	}
}

func TestJSONLSample(t *testing.T) {
	_, cells, rows := parse(t, read(t, "llama_bench.jsonl"))
	near(t, "tg128", cells[0].TotalTPS, 119.844681)
	near(t, "pp512", rows[512].PromptTPS, 7263.609157)
}

// A crashed run leaves the array without "]" (and possibly half a test):
// the complete tests are read and the page says the file was cut short.
func TestUnterminatedArray(t *testing.T) {
	full := strings.TrimSpace(string(read(t, "llama_bench.json")))
	for name, in := range map[string]string{
		"no bracket":     strings.TrimSuffix(full, "]"),
		"half a test":    strings.TrimSuffix(full, "]") + ",\n" + full[1:strings.Index(full, `"avg_ns"`)],
		"trailing comma": strings.TrimSpace(strings.TrimSuffix(full, "]")) + ",\n",
	} {
		t.Run(name, func(t *testing.T) {
			p, cells, rows := parse(t, []byte(in))
			if !slices.Contains(p.Notes, sweep.NoteTruncated) || rows[512].PromptTPS == nil {
				t.Errorf("notes %v, rows %+v", p.Notes, rows)
			}
			near(t, "tg128", cells[0].TotalTPS, 118.881588)
		})
	}
}

// tg at several depths are the decode cells' contexts; pp at a depth is a
// prefill row at depth + n_prompt without TTFT; pp+tg is left out.
func TestDepthsAndTestKinds(t *testing.T) {
	pp, tg := tests(t)[0], tests(t)[1]
	data := jsonl(pp, tg,
		with(tg, "n_depth", 4096, "avg_ts", 80.5, "samples_ns", []int{1e9, 1e9}),
		with(pp, "n_depth", 4096, "avg_ts", 3000.0),
		with(pp, "n_gen", 128, "avg_ts", 900.0))
	p, cells, rows := parse(t, data)
	near(t, "tg128 @ d4096", cells[4096].TotalTPS, 80.5)
	if *cells[4096].Completed != 2 || *cells[4096].MeasuredS != 2 {
		t.Errorf("d4096 completed %v seconds %v", *cells[4096].Completed, *cells[4096].MeasuredS)
	}
	if r := rows[4608]; r.PromptTPS == nil || *r.PromptTPS != 3000 || r.TTFTms != nil {
		t.Errorf("pp512 @ d4096 = %+v", r)
	}
	want := []string{sweep.NoteTBTFromMeanRate, sweep.NotePGTestsIgnored, sweep.NotePrefillAtDepth}
	if !slices.Equal(p.Notes, want) || len(p.Decode) != 2 || len(p.Prefill) != 2 {
		t.Errorf("notes %v, %d decode, %d prefill", p.Notes, len(p.Decode), len(p.Prefill))
	}
}

// Schema drift: 2023 builds (cuda/metal booleans, no backends or n_depth)
// and the newest (flash_attn int, load_mode) read the same.
func TestSchemaDrift(t *testing.T) {
	old := with(tests(t)[1], "cuda", true, "metal", false, "backends", nil, "gpu_info", "")
	delete(old, "backends")
	delete(old, "n_depth")
	p, cells, _ := parse(t, jsonl(old))
	if cells[0].TotalTPS == nil || p.Hardware.Type != run.CPUOnly {
		t.Errorf("2023 test: %+v, hardware %+v", cells[0], p.Hardware)
	}
	_, cells, _ = parse(t, jsonl(with(tests(t)[1], "flash_attn", -1, "load_mode", "mmap", "n_cpu_moe", 0)))
	if cells[0].TotalTPS == nil {
		t.Error("newest build's test not read")
	}
}

func TestRefusals(t *testing.T) {
	pp, tg := tests(t)[0], tests(t)[1]
	cases := []struct {
		name      string
		in        []byte
		path, key string
	}{
		{"only pp", jsonl(pp), "$", "problem.formats.llamabench_no_tg"},
		{"two setups", jsonl(tg, with(tg, "n_depth", 4096, "flash_attn", true)), "$[1].flash_attn", "problem.formats.llamabench_setups"},
		{"two models", jsonl(tg, with(tg, "model_filename", "b.gguf")), "$[1].model_filename", "problem.formats.llamabench_setups"},
		{"negative rate", jsonl(with(tg, "avg_ts", -1)), "$.avg_ts", "problem.negative"},
		{"fractional n_gen", jsonl(with(tg, "n_gen", 1.5)), "$.n_gen", "problem.integer"},
		{"NaN sample", []byte(strings.Replace(string(jsonl(tg)), `"samples_ns":[`, `"samples_ns":[Infinity,`, 1)), "$.samples_ns[0]", "problem.nonfinite"},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llamabench.Parse(tt.in)
			pe, ok := problem.As(err)
			if !ok || pe.Problems[0].Path != tt.path || pe.Problems[0].Key != tt.key {
				t.Fatalf("Parse = %v, want %s at %s", err, tt.key, tt.path)
			}
		})
	}
}

// TestForkPerTestKeys reads a fork's file whose tests carry extra avg_*,
// stddev_* and samples_* keys with per-test values: those describe the
// test, not the setup, so the file is one run.
func TestForkPerTestKeys(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/regress/llama_bench_fork_extra_keys.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, cells, rows := parse(t, b)
	if len(cells) != 1 || len(rows) != 1 {
		t.Fatalf("got %d decode cells and %d prefill rows, want 1 and 1", len(cells), len(rows))
	}
}
