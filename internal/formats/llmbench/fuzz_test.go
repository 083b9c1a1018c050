package llmbench_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/llmbench"
)

// FuzzLLMBench: whatever the bytes, the answer keeps the contract every
// format's does (formatstest.Check). Seeded with the samples of every
// version and a small file of the traps: failure sentinels, a prefill key
// that is not a number, a fractional and a zero concurrency, a negative
// rate. Plain `go test` runs the seeds only.
func FuzzLLMBench(f *testing.F) {
	for _, name := range []string{"benchmark_results_0.2.0.json", "benchmark_results_0.4.18.json",
		"benchmark_results_0.7.8.json", "invalid_cells_0.7.8_fragment.json"} {
		f.Add(read(f, name))
	}
	f.Add([]byte(`{"metadata":{"version":"0.7.8","engine":"vllm","model":"m/x","context_lengths":[0],"concurrency_levels":[1,0]},` +
		`"prefill":{"1024":{"tok_per_sec":5000,"ttft_seconds":0.2,"samples":3},"x":{}},` +
		`"results":[{"context_tokens":0,"concurrency":1,"aggregate_tps":-3.0,"loop_detected":true},` +
		`{"context_tokens":0,"concurrency":2.5,"aggregate_tps":-7,"ttft_p50":0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := llmbench.Parse(data)
		formatstest.Check(t, data, p, err)
	})
}
