package formats_test

import (
	"os"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats"
)

// BenchmarkParse times formats.Parse of samples of each kind of upload,
// detection included: the seed run and llm-inference-bench 0.7.8 (one
// object, read once and decoded without a second check), a lil-bench
// result (which embeds one), and files of two other tools (read
// leniently). The MB/s column is the parse's throughput.
//
//	go test -run '^$' -bench Parse -benchmem ./internal/formats
func BenchmarkParse(b *testing.B) {
	for _, s := range []struct{ name, path string }{
		{"seed", "../demo/runs/seed-rtx3060.bench.json"},
		{"llmbench-0.7.8", "../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"},
		{"lilbench-2gpu", "../../testdata/formats/lil-bench/lil_bench_result_2gpu.json"},
		{"guidellm", "../../testdata/formats/other-tools/guidellm_report.json"},
		{"sglang-jsonl", "../../testdata/formats/other-tools/sglang_bench_serving_latest.jsonl"},
	} {
		b.Run(s.name, func(b *testing.B) {
			data, err := os.ReadFile(s.path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := formats.Parse(data); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := formats.Parse(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
