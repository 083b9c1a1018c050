package sweep

import (
	"math"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// ServingMetrics reads the metric keys vLLM's bench serve writes and SGLang's
// bench_serving copies: output_throughput [tok/s], median_ttft_ms,
// median_itl_ms, median_tpot_ms [ms], completed, total_output_tokens and
// duration [s]. Per-request tok/s is 1000 / median TPOT (TPOT excludes the
// first token, so it is the decode speed one request saw). Time between
// tokens is the median ITL (every gap, pooled), or median TPOT when the
// record has no ITL, which the run's notes then say (TBTIsTPOT).
// Latencies of 0 mean "no samples" in both tools and stay unknown.
func (r *Records) ServingMetrics(o *jsondoc.Object) (m run.Metrics) {
	m.TotalTPS = o.Measure("output_throughput")
	m.TTFTms = o.Positive("median_ttft_ms")
	tpot := o.Positive("median_tpot_ms")
	if tpot != nil {
		m.PerRequestTPS = run.F(1000 / *tpot)
	}
	m.TBTms = o.Positive("median_itl_ms")
	if m.TBTms == nil && tpot != nil {
		m.TBTms, r.TBTIsTPOT = tpot, true
	}
	m.Completed = o.Count("completed")
	m.OutputTokens = o.Count("total_output_tokens")
	m.MeasuredS = o.Measure("duration")
	return m
}

// MeanPrompt is the mean prompt length of a serving record: total input
// tokens over completed requests, else the mean of input_lens (written with
// --save-detailed and by the legacy script), else fallback (a requested
// length, 0 when unknown).
func MeanPrompt(o *jsondoc.Object, completed *int64, fallback float64) float64 {
	if in := o.Measure("total_input_tokens"); in != nil && completed != nil && *completed > 0 {
		return *in / float64(*completed)
	}
	if lens := o.Floats("input_lens"); len(lens) > 0 {
		sum := 0.0
		for _, v := range lens {
			sum += v
		}
		return sum / float64(len(lens))
	}
	return fallback
}

// RateDriven records that a record was driven by a request rate with no cap
// on concurrent requests, so it has no concurrency to place in the grid;
// the message says what to run instead (hint: the tool's command line).
// A rate that is infinite (every request sent at once, how many not
// recorded) or absent is worded as such, never as a number.
func RateDriven(probs *problem.List, at, tool string, rate *float64, hint string) {
	r, infinite := "", rate != nil && math.IsInf(*rate, 0)
	if rate != nil && !infinite {
		r = strconv.FormatFloat(*rate, 'g', 4, 64)
	}
	probs.Add(at, "problem.formats.rate_driven", map[string]any{"Tool": tool, "Rate": r, "Infinite": infinite, "Hint": hint})
}

// MixedModels records a record that measured another model than the first.
func MixedModels(probs *problem.List, at, model, first string) {
	probs.Add(at, "problem.formats.mixed_models", map[string]any{"Model": model, "First": first})
}
