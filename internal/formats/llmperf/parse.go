// Package llmperf reads the summary files of Ray's llmperf
// (token_benchmark_ray.py writes <model>_<in>_<out>_summary.json): one
// measurement at one concurrency, one cell. Numbers may be written as
// strings (json.dump(default=str) of numpy integers) or as NaN; both are
// read here. The per-request file (*_individual_responses.json) lacks the
// concurrency and the run's throughput, so it is refused with a pointer to
// the summary. docs/formats.md says how each key becomes a number.
package llmperf

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names this format on runs and in messages.
const Format = "llmperf"

// notes are the caveats of every llmperf run, which a summary cannot
// convert away: its inter-token latency is the sum of every gap, TTFT
// included, over the streamed chunks; per-request tok/s divides by the
// whole request latency; token counts come from the Llama tokenizer
// whatever the model.
var notes = []string{sweep.NoteITLIncludesFirstToken, sweep.NotePerRequestIncludesTTFT, sweep.NoteTokensRecounted}

// Detect reports whether a document's top-level object is an llmperf
// summary (results_* keys beside num_concurrent_requests), or one record
// of the per-request file (the first element of its array), which Parse
// refuses with a message asking for the summary.
func Detect(top map[string]jsontext.Value) bool {
	_, conc := top["num_concurrent_requests"]
	_, done := top["results_num_completed_requests"]
	_, ttft := top["ttft_s"]
	_, code := top["error_code"]
	return conc || done || ttft && code
}

// DetectResponses reports whether the first JSON value of a document is an
// llmperf individual-responses list, which Parse refuses with a message.
func DetectResponses(first []byte) bool {
	var list []map[string]jsontext.Value
	if jsondoc.Unmarshal(first, &list) != nil || len(list) == 0 {
		return false
	}
	_, ttft := list[0]["ttft_s"]
	_, code := list[0]["error_code"]
	return ttft && code
}

// Parse reads one llmperf summary.
func Parse(data []byte) (*run.Parsed, error) {
	data = jsondoc.SanitizeToNull(data)
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		if DetectResponses(t) {
			return nil, problem.New(problem.Invalid, "$", "problem.formats.llmperf_responses", nil)
		}
		return nil, problem.New(problem.Invalid, "$", "problem.type", map[string]any{"Want": "object", "Got": "array"})
	}
	var s summary
	if err := jsondoc.Decode(data, &s); err != nil {
		return nil, err
	}
	c := jsondoc.NewChecker()
	out := parse(&s, c)
	if err := c.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func parse(s *summary, c *jsondoc.Checker) *run.Parsed {
	if !s.NumConcurrent.Set && s.NumConcurrent.Bad == "" {
		c.Add("$", "problem.formats.no_concurrency", map[string]any{"Tool": "llmperf", "Hint": "token_benchmark_ray.py --num-concurrent-requests N"})
		return nil
	}
	conc := c.Num("$.num_concurrent_requests", s.NumConcurrent)
	if conc == nil {
		return nil
	}
	m := run.Measurement{Path: "$", Concurrency: c.Concurrency("$.num_concurrent_requests", conc)}
	// The measured mean prompt length, else the requested one.
	isl, at := s.InputMean, "$.results_number_input_tokens_mean"
	if !isl.Set && isl.Bad == "" {
		isl, at = s.MeanInput, "$.mean_input_tokens"
	}
	mean := c.Num(at, isl)
	if mean == nil {
		if isl.Bad == "" {
			c.Add("$", "problem.formats.missing_field", map[string]any{"Field": "results_number_input_tokens_mean"})
		}
		return nil
	}
	m.Context, m.MeasuredContext = sweep.Place(*mean)
	if v := c.Num("$.results_num_completed_requests", s.Completed); v != nil {
		m.Completed = c.Count("$.results_num_completed_requests", v)
	}
	errs := c.Num("$.results_number_errors", s.Errors)
	if m.Completed != nil && *m.Completed == 0 && errs != nil && *errs > 0 {
		m.Failed = true
		m.FailureReason = fmt.Sprintf("all %.0f requests failed (error codes %s)", *errs, s.ErrorCodes)
	} else {
		metrics(c, s, &m)
	}
	return &run.Parsed{
		Format:     Format,
		Tool:       run.Tool{Name: "llmperf", Version: s.Version},
		Provenance: run.Measured,
		Model:      model(s.Model),
		MeasuredAt: sweep.EpochTime(c.Num("$.timestamp", s.Timestamp)),
		Decode:     []run.Measurement{m},
		Notes:      slices.Clone(notes),
	}
}

// metrics converts the summary's numbers: seconds become milliseconds;
// duration and output tokens, which llmperf does not store, are derived
// exactly from what it does (completed ÷ per-minute rate; mean × count).
func metrics(c *jsondoc.Checker, s *summary, m *run.Measurement) {
	// A quantile or rate of 0 means llmperf had no samples.
	positive := func(key string, n jsondoc.Num) *float64 {
		at := "$." + key
		return c.Positive(at, c.Num(at, n))
	}
	m.TotalTPS = c.Num("$.results_mean_output_throughput_token_per_s", s.OutputTPS)
	m.PerRequestTPS = positive("results_request_output_throughput_token_per_s_quantiles_p50", s.RequestTPSP50)
	if v := positive("results_ttft_s_quantiles_p50", s.TTFTP50); v != nil {
		m.TTFTms = run.F(*v * 1000)
	}
	if v := positive("results_inter_token_latency_s_quantiles_p50", s.ITLP50); v != nil {
		m.TBTms = run.F(*v * 1000)
	}
	if m.Completed == nil {
		return
	}
	n := float64(*m.Completed)
	if perMin := positive("results_num_completed_requests_per_min", s.PerMin); perMin != nil {
		m.MeasuredS = run.F(n / (*perMin / 60))
	}
	if out := c.Num("$.results_number_output_tokens_mean", s.OutputMean); out != nil {
		m.OutputTokens = run.I(sweep.Round(*out * n))
	}
}

func model(name string) run.Model {
	m := run.Model{ServedName: name}
	if bytes.ContainsRune([]byte(name), '/') {
		m.ID = name
	}
	return m
}

// summary is the flat summary as far as speedmatrix reads it.
type summary struct {
	Version       string      `json:"version"`
	Model         string      `json:"model"`
	MeanInput     jsondoc.Num `json:"mean_input_tokens"`
	NumConcurrent jsondoc.Num `json:"num_concurrent_requests"`
	InputMean     jsondoc.Num `json:"results_number_input_tokens_mean"`
	OutputMean    jsondoc.Num `json:"results_number_output_tokens_mean"`
	OutputTPS     jsondoc.Num `json:"results_mean_output_throughput_token_per_s"`
	RequestTPSP50 jsondoc.Num `json:"results_request_output_throughput_token_per_s_quantiles_p50"`
	TTFTP50       jsondoc.Num `json:"results_ttft_s_quantiles_p50"`
	ITLP50        jsondoc.Num `json:"results_inter_token_latency_s_quantiles_p50"`
	Completed     jsondoc.Num `json:"results_num_completed_requests"`
	PerMin        jsondoc.Num `json:"results_num_completed_requests_per_min"`
	Errors        jsondoc.Num `json:"results_number_errors"`
	ErrorCodes    string      `json:"results_error_code_frequency"`
	Timestamp     jsondoc.Num `json:"timestamp"`
}
