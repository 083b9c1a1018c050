package guidellm_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/guidellm"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

const samples = "../../../testdata/formats/other-tools/"

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(samples + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// cells parses data and derives its cells, keyed "context×concurrency".
func cells(t *testing.T, data []byte) (*run.Parsed, map[string]run.DecodeCell) {
	t.Helper()
	p, err := guidellm.Parse(data)
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
		t.Errorf("%s = %v, want %.4f", name, deref(got), want)
	}
}

func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

func count(t *testing.T, name string, got *int64, want int64) {
	t.Helper()
	if got == nil || *got != want {
		t.Errorf("%s = %v, want %d", name, got, want)
	}
}

// refused parses data and returns the problems' keys and paths.
func refused(t *testing.T, data []byte) []problem.Problem {
	t.Helper()
	p, err := guidellm.Parse(data)
	e, ok := problem.As(err)
	if !ok {
		t.Fatalf("Parse = %+v, %v; want a refusal", p, err)
	}
	return e.Problems
}

// edit decodes a sample, lets f change it, and encodes it again: variants
// of a real file without a file per case.
func edit(t *testing.T, name string, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(read(t, name), &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func obj(v any, path ...string) map[string]any {
	m := v.(map[string]any)
	for _, k := range path {
		m = m[k].(map[string]any)
	}
	return m
}

func benchmarks(doc map[string]any) []any { return doc["benchmarks"].([]any) }

// The v2 sample (guidellm 0.7.3): one concurrent benchmark of 4 streams,
// 256-token prompts, 60 s.
func TestV2Sample(t *testing.T) {
	p, got := cells(t, read(t, "guidellm_report.json"))
	if len(got) != 1 {
		t.Fatalf("cells %v, want only 0×4", got)
	}
	c := got["0×4"]
	if c.Status != run.Valid || c.MeasuredContext != 256 {
		t.Errorf("0×4: %s (%s), measured context %d", c.Status, c.Reason, c.MeasuredContext)
	}
	near(t, "total tok/s", c.TotalTPS, 512.1758)
	near(t, "ttft ms", c.TTFTms, 36.4221)
	// inter_token_latency_ms (7.48), not time_per_output_token_ms (7.71,
	// which includes the first token).
	near(t, "tbt ms", c.TBTms, 7.4805)
	near(t, "per-request tok/s", c.PerRequestTPS, 1000/7.480548985931577)
	near(t, "avg active", c.AvgActive, 3.975)
	near(t, "measured s", c.MeasuredS, 60)
	count(t, "completed", c.Completed, 240)
	count(t, "output tokens", c.OutputTokens, 30720)
	if p.Model.ID != "meta-llama/Llama-3.1-8B-Instruct" || p.Tool != (run.Tool{Name: "GuideLLM", Version: "0.7.3"}) {
		t.Errorf("model %+v tool %+v", p.Model, p.Tool)
	}
	if p.Format != guidellm.Format || p.MeasuredAt != "2026-01-05T09:00:00Z" || !slices.Equal(p.Notes, []string{sweep.NoteTBTIsTPOT}) {
		t.Errorf("format %q measured at %q notes %v", p.Format, p.MeasuredAt, p.Notes)
	}
}

// The legacy sample (≤0.3, no metadata): the synchronous benchmark of a
// sweep, model from worker.backend_model.
func TestLegacySample(t *testing.T) {
	p, got := cells(t, read(t, "guidellm_report_legacy_v0.3.json"))
	c, ok := got["0×1"]
	if !ok || len(got) != 1 {
		t.Fatalf("cells %v, want only 0×1", got)
	}
	if c.Status != run.Valid || c.MeasuredContext != 257 {
		t.Errorf("0×1: %s (%s), measured context %d", c.Status, c.Reason, c.MeasuredContext)
	}
	near(t, "total tok/s", c.TotalTPS, 198.0851)
	near(t, "ttft ms", c.TTFTms, 16.3805)
	near(t, "tbt ms", c.TBTms, 4.9241)
	near(t, "avg active", c.AvgActive, 0.9977)
	near(t, "measured s", c.MeasuredS, 29.9972)
	count(t, "completed", c.Completed, 46)
	count(t, "output tokens", c.OutputTokens, 5888)
	if p.Model != (run.Model{ServedName: "example_model"}) || p.Tool.Version != "" {
		t.Errorf("model %+v tool %+v", p.Model, p.Tool)
	}
}

// v1 (0.4–0.6) keeps the strategy under scheduler and the model in the
// report's args; no real file is at hand, so the v2 sample is rewritten.
func TestV1Shape(t *testing.T) {
	data := edit(t, "guidellm_report.json", func(doc map[string]any) {
		obj(doc, "metadata")["version"] = 1
		obj(doc, "metadata")["guidellm_version"] = "0.5.1"
		delete(doc, "config")
		doc["args"] = map[string]any{"backend_kwargs": map[string]any{"model": "Qwen/Qwen3-8B"}}
		b := obj(benchmarks(doc)[0])
		b["scheduler"] = map[string]any{"strategy": map[string]any{"type_": "concurrent", "streams": 8}}
		delete(b, "config")
		obj(b, "metrics", "prompt_token_count", "successful")["mean"] = 3900.4
	})
	p, got := cells(t, data)
	c, ok := got["4096×8"]
	if !ok || len(got) != 1 {
		t.Fatalf("cells %v, want only 4096×8", got)
	}
	// 3.975 of 8 streams ran at once on average: queued.
	if c.Status != run.Queued || c.MeasuredContext != 3900 {
		t.Errorf("4096×8: %s (%s), measured %d", c.Status, c.Reason, c.MeasuredContext)
	}
	if p.Model.ID != "Qwen/Qwen3-8B" || p.Tool.Version != "0.5.1" {
		t.Errorf("model %+v tool %+v", p.Model, p.Tool)
	}
}

// A sweep: synchronous, two concurrency levels and rate-driven benchmarks in
// one report. The concurrency-driven ones are cells of one run; the
// rate-driven ones are left out and the run says so.
func TestSweepSkipsRateDriven(t *testing.T) {
	data := edit(t, "guidellm_report.json", func(doc map[string]any) {
		var list []any
		for _, s := range []map[string]any{
			{"type_": "synchronous"}, {"type_": "concurrent", "streams": 16},
			{"type_": "constant", "rate": 2.5}, {"type_": "poisson", "rate": 5}, {"type_": "throughput"},
		} {
			var b map[string]any
			raw, _ := json.Marshal(benchmarks(doc)[0])
			_ = json.Unmarshal(raw, &b)
			obj(b, "config")["strategy"] = s
			list = append(list, b)
		}
		doc["benchmarks"] = list
	})
	p, got := cells(t, data)
	if len(p.Decode) != 2 || got["0×1"].Status != run.Valid || got["0×16"].Status != run.Queued {
		t.Errorf("cells %+v", got)
	}
	if !slices.Equal(p.Notes, []string{sweep.NoteRateRowsSkipped, sweep.NoteTBTIsTPOT}) {
		t.Errorf("notes %v", p.Notes)
	}
}

func TestRateOnlyRefused(t *testing.T) {
	data := edit(t, "guidellm_report.json", func(doc map[string]any) {
		obj(benchmarks(doc)[0], "config")["strategy"] = map[string]any{"type_": "poisson", "rate": 4}
	})
	ps := refused(t, data)
	if len(ps) != 1 || ps[0].Key != "problem.formats.rate_driven" || ps[0].Path != "$.benchmarks[0].config.strategy" ||
		ps[0].Data["Rate"] != "4" || !strings.Contains(ps[0].Data["Hint"].(string), "--rate-type concurrent") {
		t.Errorf("problems %+v", ps)
	}
}

// Nothing completed and requests failed: the cell is failed, by the rules.
func TestAllErroredFails(t *testing.T) {
	data := edit(t, "guidellm_report.json", func(doc map[string]any) {
		b := obj(benchmarks(doc)[0])
		obj(b, "metrics")["request_totals"] = map[string]any{"successful": 0, "errored": 12, "incomplete": 0, "total": 12}
		obj(b, "metrics", "prompt_token_count", "successful")["count"] = 0
	})
	_, got := cells(t, data)
	if c := got["0×4"]; c.Status != run.Failed || !strings.Contains(c.Reason, "12 requests failed") {
		t.Errorf("0×4: %s (%s)", c.Status, c.Reason)
	}
}

// Python writes NaN for an empty distribution's statistics: a NaN where a
// number is read leaves it unknown; a negative is refused with its path.
func TestNaNAndNegative(t *testing.T) {
	data := strings.Replace(string(read(t, "guidellm_report.json")), `"median": 36.42207357122601`, `"median": NaN`, 1)
	_, got := cells(t, []byte(data))
	if c := got["0×4"]; c.TTFTms != nil || c.Status != run.Valid {
		t.Errorf("NaN median: ttft %v status %s", deref(c.TTFTms), c.Status)
	}
	data = strings.Replace(string(read(t, "guidellm_report.json")), `"median": 36.42207357122601`, `"median": -36.4`, 1)
	ps := refused(t, []byte(data))
	if ps[0].Key != "problem.negative" || ps[0].Path != "$.benchmarks[0].metrics.time_to_first_token_ms.successful.median" {
		t.Errorf("problems %+v", ps)
	}
}

func TestRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ doc, key, path string }{
		"no benchmarks": {`{"benchmarks": []}`, "problem.formats.guidellm_no_benchmarks", "$.benchmarks"},
		"embeddings":    {`{"benchmarks": [{"type_": "embeddings_benchmark"}]}`, "problem.formats.guidellm_kind", "$.benchmarks[0].type_"},
		"no strategy":   {`{"benchmarks": [{"type_": "generative_benchmark"}]}`, "problem.formats.missing_field", "$.benchmarks[0]"},
		"streams 0": {`{"benchmarks": [{"type_": "generative_benchmark", "config": {"strategy": {"type_": "concurrent", "streams": 0}}}]}`,
			"problem.concurrency", "$.benchmarks[0].config.strategy.streams"},
		"no prompt length": {`{"benchmarks": [{"type_": "generative_benchmark", "args": {"strategy": {"type_": "synchronous"}}}]}`,
			"problem.formats.missing_field", "$.benchmarks[0].metrics.prompt_token_count"},
		"wrong type": {`{"benchmarks": [{"type_": "generative_benchmark", "duration": "60"}]}`, "problem.type", "$.benchmarks[0].duration"},
	} {
		t.Run(name, func(t *testing.T) {
			ps := refused(t, []byte(tc.doc))
			if ps[0].Key != tc.key || ps[0].Path != tc.path {
				t.Errorf("problems %+v, want %s at %s", ps, tc.key, tc.path)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	for name, want := range map[string]bool{
		"guidellm_report.json": true, "guidellm_report_legacy_v0.3.json": true,
		"genai_perf_profile_export.json": false, "llmperf_summary.json": false,
	} {
		var top map[string]jsontext.Value
		if err := json.Unmarshal(read(t, name), &top); err != nil {
			t.Fatal(err)
		}
		if got := guidellm.Detect(top); got != want {
			t.Errorf("Detect(%s) = %v", name, got)
		}
	}
}
