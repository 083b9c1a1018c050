package sglang_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/sglang"
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

func cells(t *testing.T, data []byte) (*run.Parsed, map[string]run.DecodeCell) {
	t.Helper()
	p, err := sglang.Parse(data)
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

// latest is the late-2025 sample's line: request_rate is a bare Infinity.
func latest(t *testing.T) string {
	return strings.TrimSpace(string(read(t, "sglang_bench_serving_latest.jsonl")))
}

func TestLatestSample(t *testing.T) {
	p, got := cells(t, read(t, "sglang_bench_serving_latest.jsonl"))
	if len(got) != 1 {
		t.Fatalf("cells = %v", got)
	}
	c := got["2048×64"] // 1,310,720 input tokens / 640 requests
	if c.Status != run.Valid || c.MeasuredContext != 0 {
		t.Errorf("2048×64 = %s (%s), measured context %d", c.Status, c.Reason, c.MeasuredContext)
	}
	near(t, "total tok/s", c.TotalTPS, 3969.9539617155315)
	near(t, "per-request tok/s", c.PerRequestTPS, 1000/14.79)
	near(t, "TTFT ms", c.TTFTms, 288.1)
	near(t, "TBT ms", c.TBTms, 12.71)
	near(t, "mean in flight", c.AvgActive, 63.6)
	near(t, "seconds", c.MeasuredS, 41.27)
	if *c.Completed != 640 || *c.OutputTokens != 163840 {
		t.Errorf("completed %d, output tokens %d", *c.Completed, *c.OutputTokens)
	}
	if p.Engine.Name != "SGLang" || p.Engine.Version != "0.5.4" || p.Model.ID != "meta-llama/Llama-3.1-8B-Instruct" ||
		p.Settings.KVBudgetTokens != 421456 || p.Settings.MaxOutputTokens != 256 {
		t.Errorf("facts: engine %+v model %+v settings %+v", p.Engine, p.Model, p.Settings)
	}
}

// The real (early) sample: every line ran at a request rate without a cap,
// so the file is refused line by line with what to run instead.
func TestEarlySampleIsRateDriven(t *testing.T) {
	_, err := sglang.Parse(read(t, "sglang_bench_serving.jsonl"))
	pe, ok := problem.As(err)
	if !ok || len(pe.Problems) != 7 {
		t.Fatalf("Parse = %v, want 7 rate-driven problems", err)
	}
	if p := pe.Problems[6]; p.Path != "$[6].request_rate" || p.Key != "problem.formats.rate_driven" || p.Data["Rate"] != "8" {
		t.Errorf("last problem = %+v", p)
	}
}

// An early-format line with a cap: medians only (no TPOT, so no per-request
// rate); sharegpt rows take the context from the real mean, not from
// random_input_len, which the tool writes anyway.
func TestEarlyKeysWithCapAndSharegpt(t *testing.T) {
	early := strings.Split(strings.TrimSpace(string(read(t, "sglang_bench_serving.jsonl"))), "\n")
	share := strings.Replace(early[5], `"max_concurrency": null`, `"max_concurrency": 16`, 1)
	random := strings.Replace(early[0], `"max_concurrency": null`, `"max_concurrency": 4`, 1)
	p, got := cells(t, []byte(random+"\n"+share+"\n"+early[1]+"\n"))
	c := got["0×16"] // 269,081 / 1,200 = 224 tokens on average
	if !c.Measured || c.MeasuredContext != 224 || c.PerRequestTPS != nil {
		t.Errorf("0×16 = %+v", c)
	}
	near(t, "TTFT", c.TTFTms, 68.27884959056973)
	// ratio 0.0 random prompts average half of random_input_len: 508.7 → 0.
	if r := got["0×4"]; r.MeasuredContext != 509 {
		t.Errorf("0×4 measured context %d", r.MeasuredContext)
	}
	if len(p.Notes) != 1 || p.Notes[0] != sweep.NoteRateRowsSkipped {
		t.Errorf("notes = %v", p.Notes)
	}
}

// Mean concurrency below 95 % of the cap is queued; NaN reads as unknown;
// "trace" is a rate, not a type error.
func TestQueuedNaNAndTrace(t *testing.T) {
	line := latest(t)
	// Without a recorded peak (files before late 2025) the mean in flight
	// decides.
	queued := strings.Replace(strings.Replace(line, `"concurrency": 63.6`, `"concurrency": 40.2`, 1), `"median_itl_ms": 12.71`, `"median_itl_ms": NaN`, 1)
	queued = strings.Replace(queued, `, "max_concurrent_requests": 64}`, `}`, 1)
	trace := strings.Replace(strings.Replace(line, `"request_rate": Infinity`, `"request_rate": "trace"`, 1), `"max_concurrency": 64`, `"max_concurrency": 128`, 1)
	p, got := cells(t, []byte(queued+"\n"+trace))
	c := got["2048×64"]
	if c.Status != run.Queued || c.TBTms == nil || *c.TBTms != 14.79 {
		t.Errorf("2048×64 = %s, TBT %v (want TPOT 14.79 for a NaN ITL)", c.Status, c.TBTms)
	}
	if got["2048×128"].Status != run.Queued || got["2048×128"].Reason != "at most 64 of 128 requests ran at once" {
		t.Errorf("2048×128 = %+v", got["2048×128"])
	}
	if len(p.Notes) != 1 || p.Notes[0] != sweep.NoteTBTIsTPOT {
		t.Errorf("notes = %v", p.Notes)
	}
}

func TestNothingCompletedIsFailed(t *testing.T) {
	line := strings.Replace(latest(t), `"completed": 640`, `"completed": 0`, 1)
	_, got := cells(t, []byte(line))
	// No completed request: the context is the requested random_input_len.
	if c := got["2048×64"]; c.Status != run.Failed || c.Reason != "no request completed" {
		t.Errorf("2048×64 = %s %q", c.Status, c.Reason)
	}
}

func TestRefusals(t *testing.T) {
	line := latest(t)
	tests := []struct{ name, in, path, key string }{
		{"negative", strings.Replace(line, `"duration": 41.27`, `"duration": -1`, 1), "$.duration", "problem.negative"},
		{"-Infinity", strings.Replace(line, `"median_ttft_ms": 288.1`, `"median_ttft_ms": -Infinity`, 1), "$.median_ttft_ms", "problem.nonfinite"},
		{"mixed models", line + "\n" + strings.Replace(line, `"model_path": "meta-llama/Llama-3.1-8B-Instruct"`, `"model_path": "Qwen/Qwen3-8B"`, 1),
			"$[1].server_info.model_path", "problem.formats.mixed_models"},
		{"syntax in line 2", line + "\n{\"backend\": }\n", "$[1]", "problem.syntax"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := sglang.Parse([]byte(tt.in))
			pe, ok := problem.As(err)
			if !ok || !strings.HasPrefix(pe.Problems[0].Path, tt.path) || pe.Problems[0].Key != tt.key {
				t.Fatalf("Parse = %v, want %s at %s", err, tt.key, tt.path)
			}
		})
	}
}

// TestQueuedFromPeak: the client reached its cap (max_concurrent_requests =
// max_concurrency) while the mean in flight was far below it, as ramp-up
// and the last requests draining alone make it: not queued. A run whose
// peak stayed under the cap is queued, as in vLLM.
func TestQueuedFromPeak(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/regress/sglang_peak_at_cap_low_mean.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	_, got := cells(t, b)
	if c := got["2048×64"]; c.Status != run.Valid {
		t.Errorf("peak at the cap, mean 52 of 64: %s (%s)", c.Status, c.Reason)
	}
	if c := got["2048×128"]; c.Status != run.Queued {
		t.Errorf("peak 64 under a cap of 128: %s", c.Status)
	}
}
