// Package sglang reads the JSON Lines file of SGLang's serving benchmark,
// `python -m sglang.bench_serving --output-file X.jsonl`, which appends one
// line per run and writes the default request rate as a bare Infinity. Each
// line becomes one decode cell: concurrency from --max-concurrency, context
// from the mean prompt length placed on the grid (internal/formats/sweep).
// The mapping is documented in docs/formats.md.
package sglang

import (
	"math"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names this format on runs.
const Format = "sglang-bench-serving"

// ToolName is the tool's name as the report shows it.
const ToolName = "SGLang bench_serving"

// rateHint is what to run instead of a rate-driven benchmark.
const rateHint = "python -m sglang.bench_serving --max-concurrency N --request-rate inf"

// Detect reports whether top, the first line of a file, is a bench_serving
// result: total_output_tokens_retokenized (every version) or backend beside
// dataset_name.
func Detect(top map[string]jsontext.Value) bool {
	has := func(k string) bool { _, ok := top[k]; return ok }
	return has("total_output_tokens_retokenized") || (has("backend") && has("dataset_name"))
}

// Parse reads a whole JSONL file.
func Parse(data []byte) (*run.Parsed, error) {
	return sweep.ParseRecords(data, sweep.RecordTool{Format: Format, Name: ToolName, Facts: facts, Record: record})
}

// record reads one line as a decode cell.
func record(r *sweep.Records, o *jsondoc.Object) (run.Measurement, bool) {
	m := run.Measurement{Path: o.Path}
	if info := o.Object("server_info"); info != nil {
		if model := info.String("model_path"); r.FirstModel == "" {
			r.FirstModel = model
		} else if model != "" && model != r.FirstModel {
			sweep.MixedModels(&r.Probs.List, info.At("model_path"), model, r.FirstModel)
			return m, false
		}
	}
	rate := o.Try("request_rate") // a number, Infinity or "trace"
	c := o.Count("max_concurrency")
	switch {
	case c == nil:
		// No cap: the load was set by the rate (or a trace), and the
		// number of prompts sent at once is not recorded.
		sweep.RateDriven(&r.Rate, o.At("request_rate"), ToolName, rate, rateHint)
		return m, false
	case *c < 1 || *c > math.MaxInt32:
		r.Probs.Add(o.At("max_concurrency"), "problem.concurrency", map[string]any{"Value": *c})
		return m, false
	}
	m.Concurrency = int(*c)
	m.Metrics = r.ServingMetrics(o)
	requested := 0.0
	if strings.HasPrefix(o.String("dataset_name"), "random") {
		if v := o.Measure("random_input_len"); v != nil {
			requested = *v
		}
	}
	m.Context, m.MeasuredContext = sweep.Place(sweep.MeanPrompt(o, m.Completed, requested))
	// concurrency is the mean in flight (Σ e2e latency / duration): the
	// status rules compare it with the cap.
	if v := o.Measure("concurrency"); v != nil && *v > 0 {
		m.AvgActive = v
	}
	m.PeakActive = o.Count("max_concurrent_requests") // queued when under the cap
	if m.Completed != nil && *m.Completed == 0 {
		// bench_serving counts only successes; every request it sent failed.
		m.Failed = true
		m.FailureReason = "no request completed"
	}
	return m, true
}
