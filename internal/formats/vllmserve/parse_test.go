package vllmserve_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/formats/vllmserve"
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

// cells parses data and derives its cells, keyed "context×concurrency".
func cells(t *testing.T, data []byte) (*run.Parsed, map[string]run.DecodeCell) {
	t.Helper()
	p, err := vllmserve.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	_, decode := status.Derive(p)
	got := map[string]run.DecodeCell{}
	for _, c := range decode {
		got[fmt.Sprintf("%d×%d", c.Context, c.Concurrency)] = c
	}
	return p, got
}

func near(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if got == nil || fmt.Sprintf("%.4f", *got) != fmt.Sprintf("%.4f", want) {
		t.Errorf("%s = %v, want %.4f", name, got, want)
	}
}

// edit returns the synthesized sample with keys replaced (nil deletes).
func edit(t *testing.T, changes map[string]any) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(read(t, "vllm_bench_serve_synth_concurrency.json"), &doc); err != nil {
		t.Fatal(err)
	}
	for k, v := range changes {
		if v == nil {
			delete(doc, k)
		} else {
			doc[k] = v
		}
	}
	b, _ := json.Marshal(doc)
	return string(b)
}

// The synthesized sample: --max-concurrency 4, 8 prompts of 1,024 tokens,
// request_rate "inf" as a string, latencies/queue_times arrays present.
func TestSynthConcurrencySample(t *testing.T) {
	p, got := cells(t, read(t, "vllm_bench_serve_synth_concurrency.json"))
	if len(got) != 1 {
		t.Fatalf("cells = %v, want one", got)
	}
	c := got["1024×4"]
	if c.Status != run.Valid || c.MeasuredContext != 0 {
		t.Errorf("1024×4 = %s (%s), measured context %d", c.Status, c.Reason, c.MeasuredContext)
	}
	near(t, "total tok/s", c.TotalTPS, 324.45211759145843)
	near(t, "per-request tok/s (1000/median TPOT)", c.PerRequestTPS, 1000/11.989206554155789)
	near(t, "TTFT ms", c.TTFTms, 46.570960567635034)
	near(t, "TBT ms (median ITL)", c.TBTms, 11.973243562015234)
	near(t, "seconds", c.MeasuredS, 3.1560897416900016)
	if *c.Completed != 8 || *c.OutputTokens != 1024 {
		t.Errorf("completed %d, output tokens %d", *c.Completed, *c.OutputTokens)
	}
	if p.Model.ID != "meta-llama/Llama-3.1-8B-Instruct" || p.Hardware.GPUName != "H100" || p.Engine.Name != "vLLM" {
		t.Errorf("facts: model %+v, hardware %+v, engine %+v", p.Model, p.Hardware, p.Engine)
	}
	if p.MeasuredAt != "2026-01-05 14:22:33" || p.Format != vllmserve.Format || p.Settings.RequestCount != 8 {
		t.Errorf("measured at %q, format %q, request count %d", p.MeasuredAt, p.Format, p.Settings.RequestCount)
	}
}

// The real sample ran at 1 request/s with no --max-concurrency: refused,
// saying what to run instead.
func TestRateDrivenIsRefused(t *testing.T) {
	_, err := vllmserve.Parse(read(t, "vllm_bench_serve.json"))
	pe, ok := problem.As(err)
	if !ok || len(pe.Problems) != 1 || pe.Problems[0].Path != "$.request_rate" || pe.Problems[0].Key != "problem.formats.rate_driven" {
		t.Fatalf("Parse = %v, want rate_driven at $.request_rate", err)
	}
	if d := pe.Problems[0].Data; d["Rate"] != "1" || !strings.Contains(d["Hint"].(string), "--max-concurrency N --request-rate inf") {
		t.Errorf("data = %v", d)
	}
}

// --append-result writes "\n" and another object: each is a cell, and a
// rate-driven one among them is left out with a note.
func TestAppendedObjects(t *testing.T) {
	second := edit(t, map[string]any{"max_concurrency": 8, "total_input_tokens": 16 * 4000, "completed": 16,
		"output_throughput": 600.5, "max_concurrent_requests": 6})
	rate := edit(t, map[string]any{"max_concurrency": nil, "request_rate": 2.0})
	data := string(read(t, "vllm_bench_serve_synth_concurrency.json")) + "\n" + second + "\n" + rate + "\n"
	p, got := cells(t, []byte(data))
	if len(p.Decode) != 2 || p.Decode[1].Path != "$[1]" {
		t.Fatalf("decode = %+v", p.Decode)
	}
	// 4,000 tokens on average lands on 4K; the page shows the exact mean.
	c := got["4096×8"]
	if c.MeasuredContext != 4000 || c.Status != run.Queued || c.ReasonCode != run.ReasonQueued {
		t.Errorf("4096×8 = %s (%s), measured context %d", c.Status, c.Reason, c.MeasuredContext)
	}
	near(t, "second total", c.TotalTPS, 600.5)
	if got["1024×4"].Status != run.Valid || len(p.Notes) != 1 || p.Notes[0] != sweep.NoteRateRowsSkipped {
		t.Errorf("1024×4 %s, notes %v", got["1024×4"].Status, p.Notes)
	}
}

// A run where nothing completed: numpy's mean of nothing is written as a
// bare NaN, which becomes "unknown", and the cell is failed.
func TestNaNAndNothingCompleted(t *testing.T) {
	in := `{"endpoint_type":"vllm","backend":"vllm","model_id":"m/x","num_prompts":8,"request_rate":"inf","max_concurrency":4,
	"duration":1.5,"completed":0,"failed":8,"total_input_tokens":0,"total_output_tokens":0,"output_throughput":0.0,
	"mean_ttft_ms":NaN,"median_ttft_ms":NaN,"median_tpot_ms":NaN,"median_itl_ms":NaN,"max_concurrent_requests":4,
	"input_lens":[2048,2048,2048,2048,2048,2048,2048,2048],"errors":["","Bad Request: context too long","","","","","",""]}`
	_, got := cells(t, []byte(in))
	c := got["2048×4"]
	if c.Status != run.Failed || c.TTFTms != nil || c.TBTms != nil {
		t.Fatalf("2048×4 = %s %q ttft %v", c.Status, c.Reason, c.TTFTms)
	}
	if c.Reason != "no request completed; 8 failed: Bad Request: context too long" {
		t.Errorf("reason %q", c.Reason)
	}
}

// The legacy benchmark_serving.py: "request_goodput:" with a colon, no
// "failed", per-request arrays always present.
func TestLegacyScript(t *testing.T) {
	in := `{"date":"20240901-101010","backend":"vllm","model_id":"Qwen/Qwen2-7B","tokenizer_id":"Qwen/Qwen2-7B","best_of":1,
	"num_prompts":4,"request_rate":"inf","burstiness":1.0,"max_concurrency":2,"duration":10.0,"completed":4,
	"total_input_tokens":2000,"total_output_tokens":512,"request_throughput":0.4,"request_goodput:":null,
	"output_throughput":51.2,"total_token_throughput":251.2,"mean_ttft_ms":50,"median_ttft_ms":48,"median_tpot_ms":20,
	"median_itl_ms":19.5,"input_lens":[500,500,500,500],"output_lens":[128,128,128,128],"ttfts":[0.05,0.05,0.05,0.05],
	"itls":[[0.02],[0.02],[0.02],[0.02]],"generated_texts":["a","b","c","d"],"errors":["","","",""]}`
	if !vllmserve.Detect(top(t, in)) {
		t.Fatal("legacy file not detected")
	}
	_, got := cells(t, []byte(in))
	c := got["0×2"]
	if c.Status != run.Valid || c.MeasuredContext != 500 {
		t.Errorf("0×2 = %s, measured context %d", c.Status, c.MeasuredContext)
	}
	near(t, "per-request", c.PerRequestTPS, 50)
}

func top(t *testing.T, s string) map[string]jsontext.Value {
	var m map[string]jsontext.Value
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRefusals(t *testing.T) {
	tests := []struct{ name, in, path, key string }{
		{"negative throughput", edit(t, map[string]any{"output_throughput": -3}), "$.output_throughput", "problem.negative"},
		{"infinite ttft", strings.Replace(edit(t, nil), `"median_ttft_ms":46.570960567635034`, `"median_ttft_ms":Infinity`, 1),
			"$.median_ttft_ms", "problem.nonfinite"},
		{"text count", edit(t, map[string]any{"completed": "eight"}), "$.completed", "problem.type"},
		{"mixed models", edit(t, nil) + "\n" + edit(t, map[string]any{"model_id": "other/model"}), "$[1].model_id", "problem.formats.mixed_models"},
		{"pooling", edit(t, map[string]any{"output_throughput": nil}), "$", "problem.formats.no_decode"},
		{"zero concurrency", edit(t, map[string]any{"max_concurrency": 0}), "$.max_concurrency", "problem.concurrency"},
		{"not objects", `[1,2]`, "$[0]", "problem.type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vllmserve.Parse([]byte(tt.in))
			pe, ok := problem.As(err)
			if !ok || pe.Problems[0].Path != tt.path || pe.Problems[0].Key != tt.key {
				t.Fatalf("Parse = %v, want %s at %s", err, tt.key, tt.path)
			}
		})
	}
}
