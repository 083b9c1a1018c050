package guidellm_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/guidellm"
)

// FuzzGuideLLM: whatever the bytes, the answer keeps the contract every
// format's does (formatstest.Check), and every cell is on the grid: a
// concurrency of at least 1, contexts of at least 0. Plain `go test` runs
// the seeds only.
func FuzzGuideLLM(f *testing.F) {
	f.Add(read(f, "guidellm_report.json"))
	f.Add(read(f, "guidellm_report_legacy_v0.3.json"))
	f.Add([]byte(`{"benchmarks":[{"type_":"generative_benchmark","config":{"strategy":{"type_":"concurrent","streams":2}},"metrics":{"prompt_token_count":{"successful":{"mean":NaN,"count":1}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := guidellm.Parse(data)
		formatstest.Check(t, data, p, err)
		if p == nil {
			return
		}
		for _, m := range p.Decode {
			if m.Concurrency < 1 || m.Context < 0 || m.MeasuredContext < 0 {
				t.Fatalf("bad cell %+v", m)
			}
		}
	})
}
