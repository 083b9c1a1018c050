// Package vllmserve reads the result files of vLLM's serving benchmark,
// `vllm bench serve --save-result` (and the legacy
// benchmarks/benchmark_serving.py): one JSON object per run, several when
// --append-result added runs to the same file. Each run becomes one decode
// cell: concurrency from --max-concurrency, context from the mean prompt
// length placed on the grid (internal/formats/sweep). The mapping is
// documented in docs/formats.md.
package vllmserve

import (
	"math"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names this format on runs.
const Format = "vllm-bench-serve"

// ToolName is the tool's name as the report shows it.
const ToolName = "vLLM bench serve"

// rateHint is what to run instead of a rate-driven benchmark.
const rateHint = "vllm bench serve --max-concurrency N --request-rate inf"

// Detect reports whether top, the first object of a file, is a vLLM bench
// serve result: endpoint_type (2025+), the legacy script's "request_goodput:"
// key, or a model_id beside vLLM's metric keys.
func Detect(top map[string]jsontext.Value) bool {
	has := func(k string) bool { _, ok := top[k]; return ok }
	return has("endpoint_type") || has("request_goodput:") ||
		(has("model_id") && (has("median_ttft_ms") || (has("num_prompts") && has("request_throughput"))))
}

// Parse reads a whole result file.
func Parse(data []byte) (*run.Parsed, error) {
	return sweep.ParseRecords(data, sweep.RecordTool{Format: Format, Name: ToolName, Facts: facts, Record: record})
}

// record reads one run of the benchmark as a decode cell.
func record(r *sweep.Records, o *jsondoc.Object) (run.Measurement, bool) {
	m := run.Measurement{Path: o.Path}
	if model := o.String("model_id"); r.FirstModel == "" {
		r.FirstModel = model
	} else if model != r.FirstModel {
		sweep.MixedModels(&r.Probs.List, o.At("model_id"), model, r.FirstModel)
		return m, false
	}
	if !o.Has("output_throughput") {
		// Pooling (embedding) backends write no output tokens.
		r.Probs.Add(o.Path, "problem.formats.no_decode", map[string]any{"Tool": ToolName})
		return m, false
	}
	conc, ok := concurrency(r, o)
	if !ok {
		return m, false
	}
	m.Concurrency = conc
	m.Metrics = r.ServingMetrics(o)
	m.Context, m.MeasuredContext = sweep.Place(sweep.MeanPrompt(o, m.Completed, 0))
	m.PeakActive = o.Count("max_concurrent_requests") // queued when under the cap
	failure(o, &m)
	return m, true
}

// concurrency is --max-concurrency; without one, a run at an infinite rate
// sent all num_prompts requests at once, and a run at a finite rate (or a
// ramp-up) has no concurrency: it is rate-driven.
func concurrency(r *sweep.Records, o *jsondoc.Object) (int, bool) {
	rate := o.Try("request_rate")
	if c := o.Count("max_concurrency"); c != nil {
		if *c < 1 || *c > math.MaxInt32 {
			r.Probs.Add(o.At("max_concurrency"), "problem.concurrency", map[string]any{"Value": *c})
			return 0, false
		}
		return int(*c), true
	}
	unbounded := (rate == nil || math.IsInf(*rate, 1)) && !o.Has("ramp_up_strategy")
	if n := o.Count("num_prompts"); unbounded && n != nil && *n >= 1 && *n <= math.MaxInt32 {
		return int(*n), true
	}
	sweep.RateDriven(&r.Rate, o.At("request_rate"), ToolName, rate, rateHint)
	return 0, false
}
