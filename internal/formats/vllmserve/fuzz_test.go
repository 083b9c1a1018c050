package vllmserve_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/vllmserve"
)

// FuzzVLLM: whatever the bytes, Parse never panics and either refuses with
// problems or returns clean values the ingest accepts or refuses cleanly.
// Plain `go test` runs the seeds only.
func FuzzVLLM(f *testing.F) {
	synth := read(f, "vllm_bench_serve_synth_concurrency.json")
	f.Add(synth)
	f.Add(read(f, "vllm_bench_serve.json"))
	f.Add(append(append(append([]byte{}, synth...), '\n'), synth...))
	f.Add([]byte(`{"endpoint_type":"vllm","model_id":"m/x","max_concurrency":2,"completed":0,"failed":2,"output_throughput":0,"median_ttft_ms":NaN}`))
	f.Add([]byte(`{"model_id":"a","request_goodput:":null,"median_ttft_ms":1,"num_prompts":3,"request_rate":"inf","output_throughput":1e308,"input_lens":[1,2]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := vllmserve.Parse(data)
		formatstest.Check(t, data, p, err)
	})
}
