package sglang_test

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/formats/sglang"
)

// FuzzSGLang: whatever the bytes, Parse never panics and either refuses
// with problems or returns clean values the ingest accepts or refuses
// cleanly. Plain `go test` runs the seeds only.
func FuzzSGLang(f *testing.F) {
	f.Add(read(f, "sglang_bench_serving_latest.jsonl"))
	f.Add(read(f, "sglang_bench_serving.jsonl"))
	f.Add([]byte(`{"backend":"sglang","dataset_name":"random","request_rate":Infinity,"max_concurrency":2,"completed":0,"random_input_len":100,"median_ttft_ms":NaN,"output_throughput":-Infinity}`))
	f.Add([]byte(`{"backend":"vllm","dataset_name":"sharegpt","request_rate":"trace","max_concurrency":1,"concurrency":0.5,"total_output_tokens_retokenized":1}` + "\n" + `{"backend":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := sglang.Parse(data)
		formatstest.Check(t, data, p, err)
	})
}
