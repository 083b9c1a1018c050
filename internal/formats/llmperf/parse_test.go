package llmperf_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/llmperf"
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

func only(t *testing.T, data []byte) (*run.Parsed, run.DecodeCell) {
	t.Helper()
	p, err := llmperf.Parse(data)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	_, cells := status.Derive(p)
	if len(cells) != 1 {
		t.Fatalf("%d cells, want 1", len(cells))
	}
	return p, cells[0]
}

func near(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if got == nil || fmt.Sprintf("%.4f", *got) != fmt.Sprintf("%.4f", want) {
		t.Errorf("%s = %v, want %.4f", name, fmt.Sprint(deref(got)), want)
	}
}

func deref(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

func refused(t *testing.T, data []byte) []problem.Problem {
	t.Helper()
	p, err := llmperf.Parse(data)
	e, ok := problem.As(err)
	if !ok {
		t.Fatalf("Parse = %+v, %v; want a refusal", p, err)
	}
	return e.Problems
}

// replace swaps one value of the summary sample.
func replace(t *testing.T, key, value string) []byte {
	t.Helper()
	var doc map[string]jsontext.Value
	if err := json.Unmarshal(read(t, "llmperf_summary.json"), &doc); err != nil {
		t.Fatal(err)
	}
	doc[key] = jsontext.Value(value)
	b, _ := json.Marshal(doc)
	return b
}

// The real summary (TinyLlama, 5 concurrent requests, 50 completed): one
// cell at context 0 (260 tokens measured), seconds turned into ms.
func TestSummarySample(t *testing.T) {
	p, c := only(t, read(t, "llmperf_summary.json"))
	if c.Context != 0 || c.MeasuredContext != 260 || c.Concurrency != 5 || c.Status != run.Valid {
		t.Errorf("cell %d(%d)×%d %s", c.Context, c.MeasuredContext, c.Concurrency, c.Status)
	}
	near(t, "total tok/s", c.TotalTPS, 335.4008)
	near(t, "per-request tok/s", c.PerRequestTPS, 85.8519)
	near(t, "ttft ms", c.TTFTms, 241.6684)
	near(t, "tbt ms", c.TBTms, 11.6468)
	// Not stored: 50 requests at 202.37 per minute, 99.44 tokens each.
	near(t, "measured s", c.MeasuredS, 14.8241)
	if c.Completed == nil || *c.Completed != 50 || c.OutputTokens == nil || *c.OutputTokens != 4972 {
		t.Errorf("completed %v output tokens %v", c.Completed, c.OutputTokens)
	}
	if p.Model.ID != "tinyLlama/TinyLlama-1.1B-Chat-v1.0" || p.Tool != (run.Tool{Name: "llmperf", Version: "2023-08-31"}) {
		t.Errorf("model %+v tool %+v", p.Model, p.Tool)
	}
	if p.Format != llmperf.Format || p.MeasuredAt != "2026-09-11T17:36:27Z" {
		t.Errorf("format %q measured at %q", p.Format, p.MeasuredAt)
	}
	for _, n := range []string{sweep.NoteITLIncludesFirstToken, sweep.NotePerRequestIncludesTTFT, sweep.NoteTokensRecounted} {
		if !slices.Contains(p.Notes, n) {
			t.Errorf("notes %v lack %s", p.Notes, n)
		}
	}
}

// numpy integers are written as strings ("131"); the same numbers read the
// same whether quoted or not.
func TestNumbersAsStrings(t *testing.T) {
	doc := strings.NewReplacer(`"num_concurrent_requests": 5`, `"num_concurrent_requests": "5"`,
		`"results_num_completed_requests": 50`, `"results_num_completed_requests": "50"`).
		Replace(string(read(t, "llmperf_summary.json")))
	_, c := only(t, []byte(doc))
	if c.Concurrency != 5 || c.Completed == nil || *c.Completed != 50 {
		t.Errorf("concurrency %d completed %v", c.Concurrency, c.Completed)
	}
	ps := refused(t, replace(t, "results_ttft_s_quantiles_p50", `"fast"`))
	if ps[0].Key != "problem.type" || ps[0].Path != "$.results_ttft_s_quantiles_p50" {
		t.Errorf("problems %+v", ps)
	}
}

// NaN, bare or quoted, is "not measured", never a number.
func TestNaN(t *testing.T) {
	for _, v := range []string{`NaN`, `"NaN"`, `"nan"`} {
		data := []byte(strings.Replace(string(read(t, "llmperf_summary.json")),
			`"results_ttft_s_quantiles_p50": 0.24166843249986414`, `"results_ttft_s_quantiles_p50": `+v, 1))
		if _, c := only(t, data); c.TTFTms != nil || c.TotalTPS == nil {
			t.Errorf("%s: ttft %v", v, *c.TTFTms)
		}
	}
}

func TestAllFailed(t *testing.T) {
	data := strings.NewReplacer(`"results_num_completed_requests": 50`, `"results_num_completed_requests": 0`,
		`"results_number_errors": 0`, `"results_number_errors": 50`,
		`"results_error_code_frequency": "{}"`, `"results_error_code_frequency": "{429: 50}"`).
		Replace(string(read(t, "llmperf_summary.json")))
	if _, c := only(t, []byte(data)); c.Status != run.Failed || !strings.Contains(c.Reason, "{429: 50}") {
		t.Errorf("%s (%s)", c.Status, c.Reason)
	}
}

// The per-request file has no concurrency or run throughput: refused, with
// a message that asks for the summary written beside it.
func TestIndividualResponsesRefused(t *testing.T) {
	data := read(t, "llmperf_individual_responses.json")
	var list []map[string]jsontext.Value
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	if !llmperf.DetectResponses(data) || !llmperf.Detect(list[0]) {
		t.Error("not detected")
	}
	if ps := refused(t, data); len(ps) != 1 || ps[0].Key != "problem.formats.llmperf_responses" {
		t.Errorf("problems %+v", ps)
	}
}

func TestRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		data      []byte
		key, path string
	}{
		"negative":         {replace(t, "results_mean_output_throughput_token_per_s", `-3`), "problem.negative", "$.results_mean_output_throughput_token_per_s"},
		"zero concurrency": {replace(t, "num_concurrent_requests", `"0"`), "problem.concurrency", "$.num_concurrent_requests"},
		"object":           {replace(t, "num_concurrent_requests", `{}`), "problem.type", "$.num_concurrent_requests"},
		"no concurrency":   {[]byte(`{"results_num_completed_requests": 3}`), "problem.formats.no_concurrency", "$"},
		"array of numbers": {[]byte(`[1, 2]`), "problem.type", "$"},
	} {
		t.Run(name, func(t *testing.T) {
			if ps := refused(t, tc.data); ps[0].Key != tc.key || ps[0].Path != tc.path {
				t.Errorf("problems %+v, want %s at %s", ps, tc.key, tc.path)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	for name, want := range map[string]bool{"llmperf_summary.json": true, "genai_perf_profile_export.json": false, "guidellm_report.json": false} {
		var top map[string]jsontext.Value
		if err := json.Unmarshal(read(t, name), &top); err != nil {
			t.Fatal(err)
		}
		if llmperf.Detect(top) != want {
			t.Errorf("Detect(%s) = %v", name, !want)
		}
	}
}
