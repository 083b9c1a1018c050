// Package sweep holds what the parsers of serving benchmarks (vLLM, SGLang,
// GuideLLM, GenAI-Perf/AIPerf, llmperf) share: placing a measurement in the
// grid (those tools report a mean prompt length, not a context from a fixed
// list, so each cell is put on the nearest context of the grid speedmatrix
// compares across runs, and the exact mean is kept beside it), the caveat
// codes the report page explains, the refusal of rate-driven runs, the
// reading of a file of serving records (ParseRecords: vLLM's bench serve and
// SGLang's bench_serving, whose metric keys are the same), conversions of
// the tools' values (Round, EpochTime), and the merging of several files
// into one run. docs/formats.md is the mapping it implements.
package sweep

import "math"

// Contexts are the grid's context lengths a measured prompt length is placed
// on: 0, 1K, 2K, 4K … 256K tokens.
var Contexts = []int{0, 1 << 10, 2 << 10, 4 << 10, 8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10}

// Bucket returns the context of Contexts nearest to tokens (a mean prompt
// length); on a tie the smaller one wins, so the result never claims more
// context than was sent. Anything beyond 256K, or not a number, lands on the
// end it is nearest to.
func Bucket(tokens float64) int {
	if math.IsNaN(tokens) || tokens <= 0 {
		return 0
	}
	if last := Contexts[len(Contexts)-1]; tokens >= float64(last) {
		return last
	}
	best := Contexts[0]
	for _, c := range Contexts[1:] {
		if math.Abs(float64(c)-tokens) < math.Abs(float64(best)-tokens) {
			best = c
		}
	}
	return best
}

// Place returns the grid context and the measured context of a cell whose
// requests sent meanPrompt tokens on average, as run.Measurement wants them:
// the measured context is the rounded mean, or 0 when it equals the grid's.
func Place(meanPrompt float64) (context, measured int) {
	context = Bucket(meanPrompt)
	if math.IsNaN(meanPrompt) || meanPrompt <= 0 {
		return context, 0
	}
	m := meanPrompt
	if m > float64(math.MaxInt32) {
		m = float64(math.MaxInt32)
	}
	measured = int(math.Round(m))
	if measured == context {
		measured = 0
	}
	return context, measured
}
