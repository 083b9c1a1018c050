package lilbench_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/lilbench"
)

// unread are top-level keys of lil-bench's document that speedmatrix does
// not read: two thirds of the samples' 180–300 KB, where the fuzzer would
// spend most of its mutations for nothing.
var unread = []string{"telemetry", "server_telemetry", "pcie_telemetry", "phases"}

// FuzzLilBench: whatever the bytes, the answer keeps the contract every
// format's does (formatstest.Check). Seeded with the two samples without
// their telemetry, and a small document whose plan trims one context and
// skips another. Plain `go test` runs the seeds only.
func FuzzLilBench(f *testing.F) {
	for _, name := range []string{"lil_bench_result_1gpu.json", "lil_bench_result_2gpu.json"} {
		data, err := os.ReadFile("../../../testdata/formats/lil-bench/" + name)
		if err != nil {
			f.Fatal(err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			f.Fatal(err)
		}
		for _, k := range unread {
			delete(doc, k)
		}
		seed, err := json.Marshal(doc)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(seed)
	}
	f.Add([]byte(`{"schema":"lil-bench-result/1","run_id":"r1","status":"complete","plan":[` +
		`{"kind":"decode","concurrency":1,"requested_context":1024,"context":1000,"status":"done"},` +
		`{"kind":"decode","concurrency":2,"requested_context":4096,"status":"skipped","reason":"needs 9,000 KV tokens, the server has 8,000"}],` +
		`"results":{"bench":{"metadata":{"version":"0.7.8","engine":"vllm","model":"m/x"},` +
		`"results":[{"context_tokens":1000,"concurrency":1,"aggregate_tps":50,"ttft_p50":0.1}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := lilbench.Parse(data)
		formatstest.Check(t, data, p, err)
	})
}
