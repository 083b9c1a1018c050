package llamabench_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/llamabench"
)

// FuzzLlamaBench: whatever the bytes, Parse never panics and either refuses
// with problems or returns clean values the ingest accepts or refuses
// cleanly. Plain `go test` runs the seeds only.
func FuzzLlamaBench(f *testing.F) {
	full := read(f, "llama_bench.json")
	f.Add(full)
	f.Add(full[:len(full)-3]) // unterminated
	f.Add(read(f, "llama_bench.jsonl"))
	f.Add([]byte(`[{"build_commit":"x","avg_ts":NaN,"n_gen":1,"n_depth":9e9,"samples_ns":[1e400]},{"build_commit":"y"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := llamabench.Parse(data)
		formatstest.Check(t, data, p, err)
	})
}
