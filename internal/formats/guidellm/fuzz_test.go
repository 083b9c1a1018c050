package guidellm_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/guidellm"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// FuzzGuideLLM: any input is refused with a problem or parsed; never a
// panic, never another kind of error.
func FuzzGuideLLM(f *testing.F) {
	f.Add(read(f, "guidellm_report.json"))
	f.Add(read(f, "guidellm_report_legacy_v0.3.json"))
	f.Add([]byte(`{"benchmarks":[{"type_":"generative_benchmark","config":{"strategy":{"type_":"concurrent","streams":2}},"metrics":{"prompt_token_count":{"successful":{"mean":NaN,"count":1}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := guidellm.Parse(data)
		if err != nil {
			if _, ok := problem.As(err); !ok {
				t.Fatalf("not a refusal: %v", err)
			}
			return
		}
		if p == nil {
			t.Fatal("nil run without an error")
		}
		for _, m := range p.Decode {
			if m.Concurrency < 1 || m.Context < 0 || m.MeasuredContext < 0 {
				t.Fatalf("bad cell %+v", m)
			}
		}
	})
}
