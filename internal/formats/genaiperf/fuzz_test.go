package genaiperf_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/genaiperf"
)

// FuzzGenAIPerf: whatever the bytes, the answer keeps the contract every
// format's does (formatstest.Check), and a result is one cell on the grid.
// Plain `go test` runs the seeds only.
func FuzzGenAIPerf(f *testing.F) {
	for _, name := range []string{"genai_perf_profile_export.json", "aiperf_profile_export_aiperf.json", "aiperf_profile_export_aiperf_records_variant.json"} {
		f.Add(read(f, name))
	}
	f.Add([]byte(`{"input_config":{"loadgen":{"concurrency":"8"}},"input_sequence_length":{"unit":"tokens","avg":NaN},"time_to_first_token":{"unit":"s","p50":0.2}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := genaiperf.Parse(data)
		formatstest.Check(t, data, p, err)
		// One file is one measurement at one load.
		if p != nil && (len(p.Decode) != 1 || p.Decode[0].Concurrency < 1 || p.Decode[0].Context < 0) {
			t.Fatalf("bad result %+v", p)
		}
	})
}
