package llmperf_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/llmperf"
)

// FuzzLLMPerf: whatever the bytes, the answer keeps the contract every
// format's does (formatstest.Check), and a result is one cell on the grid.
// Plain `go test` runs the seeds only.
func FuzzLLMPerf(f *testing.F) {
	f.Add(read(f, "llmperf_summary.json"))
	f.Add(read(f, "llmperf_individual_responses.json"))
	f.Add([]byte(`{"num_concurrent_requests":"4","results_number_input_tokens_mean":NaN,"mean_input_tokens":"1024","results_ttft_s_quantiles_p50":"nan"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := llmperf.Parse(data)
		formatstest.Check(t, data, p, err)
		// One file is one measurement at one load.
		if p != nil && (len(p.Decode) != 1 || p.Decode[0].Concurrency < 1 || p.Decode[0].Context < 0) {
			t.Fatalf("bad result %+v", p)
		}
	})
}
