package llmperf_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/llmperf"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// FuzzLLMPerf: any input is refused with a problem or parsed into one cell;
// never a panic.
func FuzzLLMPerf(f *testing.F) {
	f.Add(read(f, "llmperf_summary.json"))
	f.Add(read(f, "llmperf_individual_responses.json"))
	f.Add([]byte(`{"num_concurrent_requests":"4","results_number_input_tokens_mean":NaN,"mean_input_tokens":"1024","results_ttft_s_quantiles_p50":"nan"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := llmperf.Parse(data)
		if err != nil {
			if _, ok := problem.As(err); !ok {
				t.Fatalf("not a refusal: %v", err)
			}
			return
		}
		if p == nil || len(p.Decode) != 1 || p.Decode[0].Concurrency < 1 || p.Decode[0].Context < 0 {
			t.Fatalf("bad result %+v", p)
		}
	})
}
