package llmbench_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/llmbench"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

const samples = "../../../testdata/formats/llm-inference-bench"

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(samples, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func statuses(t *testing.T, data []byte) map[string]run.DecodeCell {
	t.Helper()
	p, err := llmbench.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	_, cells := status.Derive(p)
	got := map[string]run.DecodeCell{}
	for _, c := range cells {
		got[fmt.Sprintf("%d×%d", c.Context, c.Concurrency)] = c
	}
	return got
}

// The three samples share one grid: 0 and 16K × C1–16 with a 212,992-token
// KV budget and 2,048 output tokens, so 16K × 16 (294,912 tokens) is skipped
// by the tool and C16 at context 0 queued (8 of 16 ran at once).
var sampleStatuses = map[string]run.Status{
	"0×1": run.Valid, "0×2": run.Valid, "0×4": run.Valid, "0×8": run.Valid, "0×16": run.Queued,
	"16384×1": run.Valid, "16384×2": run.Valid, "16384×4": run.Valid, "16384×8": run.Valid,
	"16384×16": run.OverCapacity,
}

func TestSamplesStatuses(t *testing.T) {
	for _, name := range []string{"benchmark_results_0.2.0.json", "benchmark_results_0.4.18.json", "benchmark_results_0.7.8.json"} {
		t.Run(name, func(t *testing.T) {
			got := statuses(t, read(t, name))
			if len(got) != len(sampleStatuses) {
				t.Errorf("%d cells, want %d", len(got), len(sampleStatuses))
			}
			for k, want := range sampleStatuses {
				if got[k].Status != want {
					t.Errorf("cell %s = %s (%s), want %s", k, got[k].Status, got[k].Reason, want)
				}
			}
			if r := got["16384×16"]; r.ReasonCode != run.ReasonKVBudget || r.Measured {
				t.Errorf("16K×16 reason %q code %s measured %v", r.Reason, r.ReasonCode, r.Measured)
			}
		})
	}
}

func TestSample078Numbers(t *testing.T) {
	c := statuses(t, read(t, "benchmark_results_0.7.8.json"))["0×1"]
	check := func(name string, got *float64, want float64) {
		t.Helper()
		if got == nil || fmt.Sprintf("%.4f", *got) != fmt.Sprintf("%.4f", want) {
			t.Errorf("%s = %v, want %.4f", name, got, want)
		}
	}
	check("total", c.TotalTPS, 152.23810837548797)
	check("ttft ms", c.TTFTms, 31.57823743151056)
	check("tbt ms", c.TBTms, 6.550572642788002)
	check("measured s", c.MeasuredS, 29.999059)
	if c.OutputTokens == nil || *c.OutputTokens != 4567 {
		t.Errorf("output tokens = %v, want 4567", c.OutputTokens)
	}
}

// withFragment splices the failed and looped cells of the fragment file into
// the 0.7.8 sample, replacing the cells they stand for.
func withFragment(t *testing.T) []byte {
	t.Helper()
	var doc map[string]any
	var frag struct{ Results []map[string]any }
	if err := json.Unmarshal(read(t, "benchmark_results_0.7.8.json"), &doc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(read(t, "invalid_cells_0.7.8_fragment.json"), &frag); err != nil {
		t.Fatal(err)
	}
	key := func(r map[string]any) string { return fmt.Sprint(r["context_tokens"], "×", r["concurrency"]) }
	bad := map[string]map[string]any{}
	for _, r := range frag.Results {
		bad[key(r)] = r
	}
	results := doc["results"].([]any)
	for i, r := range results {
		if f, ok := bad[key(r.(map[string]any))]; ok {
			results[i] = f
		}
	}
	out, _ := json.Marshal(doc)
	return out
}

func TestFailedAndLoopedCells(t *testing.T) {
	got := statuses(t, withFragment(t))
	want := map[string]run.ReasonCode{"16384×8": run.ReasonSource, "16384×4": run.ReasonSource, "0×4": run.ReasonLoop}
	for k, code := range want {
		c := got[k]
		if c.Status != run.Failed || c.ReasonCode != code || c.TotalTPS != nil {
			t.Errorf("%s = %s %s %q total %v, want failed %s with no throughput", k, c.Status, c.ReasonCode, c.Reason, c.TotalTPS, code)
		}
	}
	if r := got["16384×8"].Reason; r != "ProtocolError: peer closed connection without sending complete message body (incomplete chunked read)" {
		t.Errorf("failure reason not kept: %q", r)
	}
	if got["0×1"].Status != run.Valid {
		t.Errorf("untouched cell 0×1 = %s", got["0×1"].Status)
	}
}

func TestLegacyAllZeroRecordIsFailed(t *testing.T) {
	in := `{"metadata":{"version":"0.4.18","max_tokens":64,"concurrency_levels":[1,2],"context_lengths":[0]},
	"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":10.5,"total_tokens":300,"num_completed":1,"ttft_p50":0.1},
	{"concurrency":2,"context_tokens":0,"aggregate_tps":0.0,"total_tokens":0,"num_completed":0,"ttft_p50":0.0}]}`
	got := statuses(t, []byte(in))
	if c := got["0×2"]; c.Status != run.Failed || c.ReasonCode != run.ReasonLegacyZero {
		t.Errorf("0×2 = %s %s, want failed legacy", c.Status, c.ReasonCode)
	}
	// From 0.6 on, zeros mean "ran, no output": over capacity, not failed.
	got = statuses(t, []byte(`{"metadata":{"version":"0.7.8","max_tokens":64,"concurrency_levels":[2],"context_lengths":[0]},
	"results":[{"concurrency":2,"context_tokens":0,"aggregate_tps":0.0,"total_tokens":0,"client_output_tokens":0,"num_completed":0,"ttft_p50":0.0}]}`))
	if c := got["0×2"]; c.Status != run.OverCapacity || c.ReasonCode != run.ReasonNoOutput {
		t.Errorf("0.7.8 zero cell = %s %s, want over capacity (no output)", c.Status, c.ReasonCode)
	}
}

func TestRefusals(t *testing.T) {
	tests := []struct{ name, in, path, key string }{
		{"negative throughput", `{"metadata":{"version":"0.7.8","concurrency_levels":[1],"context_lengths":[0]},"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":-5}]}`,
			"$.results[0].aggregate_tps", "problem.negative"},
		{"negative ttft", `{"metadata":{"version":"0.7.8","concurrency_levels":[1],"context_lengths":[0]},"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":5,"ttft_p50":-0.1}]}`,
			"$.results[0].ttft_p50", "problem.negative"},
		{"completion stats mode", `{"metadata":{"version":"0.4.10","mode":"completion_stats"},"runs":[]}`, "$.metadata.mode", "problem.llmbench.mode"},
		{"fractional concurrency", `{"metadata":{"version":"0.7.8","concurrency_levels":[1.5],"context_lengths":[0]},"results":[]}`,
			"$.metadata.concurrency_levels[0]", "problem.integer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llmbench.Parse([]byte(tt.in))
			pe, ok := problem.As(err)
			if !ok || pe.Problems[0].Path != tt.path || pe.Problems[0].Key != tt.key {
				t.Fatalf("Parse = %v, want %s at %s", err, tt.key, tt.path)
			}
		})
	}
}

// TestPrefillOrderFixed: the prefill map's keys are read smallest context
// first and refused keys last in string order, so the same file names the
// same first problem every time (a Go map's order changes from run to
// run; with five bad keys a map-ordered reading would pass this by chance
// once in 120 tries, and it is asked ten times).
func TestPrefillOrderFixed(t *testing.T) {
	doc := `{"metadata":{"version":"0.7.8","concurrency_levels":[1],"context_lengths":[0]},` +
		`"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":5}],` +
		`"prefill":{"e":{},"c":{},"a":{},"d":{},"b":{},"16384":{"tok_per_sec":2},"8192":{"tok_per_sec":1}}}`
	for range 10 {
		_, err := llmbench.Parse([]byte(doc))
		pe, ok := problem.As(err)
		if !ok {
			t.Fatalf("Parse = %v, want refusals of the keys a to e", err)
		}
		var paths []string
		for _, p := range pe.Problems {
			paths = append(paths, p.Path)
		}
		want := []string{`$.prefill.a`, `$.prefill.b`, `$.prefill.c`, `$.prefill.d`, `$.prefill.e`}
		if fmt.Sprint(paths) != fmt.Sprint(want) {
			t.Fatalf("problems at %v, want %v", paths, want)
		}
	}
}
