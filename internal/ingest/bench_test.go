package ingest_test

import (
	"os"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// The Prepare benchmarks time everything an upload costs before the
// database: format detection, parsing, merging the uploader's metadata,
// validation, the SHA-256 of the body and the status derivation. The body is
// read from disk once, outside the timed loop, as a request has it in memory
// already (ingest.Open's reading is the door's cost). b.SetBytes makes the MB/s
// column the parsing throughput of the document.

func benchPrepare(b *testing.B, u ingest.Upload) {
	b.Helper()
	// Fail fast, outside the timings, on a document the ingest refuses.
	if _, _, err := ingest.Prepare(u, time.Now()); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(u.Files[0].Data)))
	b.ReportAllocs()
	for b.Loop() {
		r, key, err := ingest.Prepare(u, time.Now())
		if err != nil || r == nil || key == "" {
			b.Fatal(err)
		}
	}
}

func fileUpload(b *testing.B, path, name string) ingest.Upload {
	b.Helper()
	body, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return ingest.Upload{Files: []archive.File{{Name: name, Data: body}}}
}

// BenchmarkPrepare078 is the llm-inference-bench 0.7.8 sample (~100 KB).
func BenchmarkPrepare078(b *testing.B) {
	benchPrepare(b, fileUpload(b, "../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json", "benchmark_results.json"))
}

// BenchmarkPrepareSeed is the seed run (~14 KB) with its upload-form
// metadata, as demo.Load and the site's first start ingest it.
func BenchmarkPrepareSeed(b *testing.B) {
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		b.Fatal(err)
	}
	benchPrepare(b, u)
}

// BenchmarkPrepareLilBench2GPU is a lil-bench result of a two-GPU machine
// (~175 KB).
func BenchmarkPrepareLilBench2GPU(b *testing.B) {
	benchPrepare(b, fileUpload(b, "../../testdata/formats/lil-bench/lil_bench_result_2gpu.json", "lil_bench_result.json"))
}
