package genaiperf_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/genaiperf"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// FuzzGenAIPerf: any input is refused with a problem or parsed into one
// cell; never a panic.
func FuzzGenAIPerf(f *testing.F) {
	for _, name := range []string{"genai_perf_profile_export.json", "aiperf_profile_export_aiperf.json", "aiperf_profile_export_aiperf_records_variant.json"} {
		f.Add(read(f, name))
	}
	f.Add([]byte(`{"input_config":{"loadgen":{"concurrency":"8"}},"input_sequence_length":{"unit":"tokens","avg":NaN},"time_to_first_token":{"unit":"s","p50":0.2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := genaiperf.Parse(data)
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
