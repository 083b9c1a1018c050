package site_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// These benchmarks are full HTTP round trips: the httptest server of
// webtest.NewSite (web.New over a fresh migrated PostgreSQL database from dbtest)
// and its keep-alive client, on 127.0.0.1. Each iteration is one request
// and reads the whole answer, so ns/op is the latency of one request at a
// concurrency of one, client included. Without a database they skip, like
// the tests.

// do sends req, drains the body and returns the status and body size.
func do(b *testing.B, c *http.Client, req *http.Request) (int, int64) {
	resp, err := c.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		b.Fatal(err)
	}
	return resp.StatusCode, n
}

// BenchmarkServeSeedReport is GET /runs/{id} of the seed run: the revision
// lookup, GetRun (three queries in a read-only transaction), report.Build
// and the templ render, uncached. SetBytes is the page size.
func BenchmarkServeSeedReport(b *testing.B) {
	s := webtest.NewSite(b)
	id := s.Seed(b)
	req, err := http.NewRequest("GET", s.URL+"/runs/"+id, nil)
	if err != nil {
		b.Fatal(err)
	}
	c := s.Client()
	status, size := do(b, c, req)
	if status != 200 {
		b.Fatalf("GET /runs/%s = %d", id, status)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if st, n := do(b, c, req); st != 200 || n != size {
			b.Fatalf("GET = %d, %d bytes; want 200, %d", st, n, size)
		}
	}
}

// BenchmarkServeSeedReport304 is the revalidation of the same page by a
// browser that has it: If-None-Match with the ETag answers 304 after one
// index lookup of the run's revision, without loading or rendering it.
func BenchmarkServeSeedReport304(b *testing.B) {
	s := webtest.NewSite(b)
	id := s.Seed(b)
	resp, _ := s.Get(b, "/runs/"+id)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || etag == "" {
		b.Fatalf("GET /runs/%s = %d, ETag %q", id, resp.StatusCode, etag)
	}
	req, err := http.NewRequest("GET", s.URL+"/runs/"+id, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("If-None-Match", etag)
	c := s.Client()
	b.ReportAllocs()
	for b.Loop() {
		if st, n := do(b, c, req); st != http.StatusNotModified || n != 0 {
			b.Fatalf("conditional GET = %d, %d bytes; want 304", st, n)
		}
	}
}

// BenchmarkUploadAPI is POST /api/v1/runs of the llm-inference-bench 0.7.8
// sample (~100 KB), each iteration a new document: the six digits of the
// metadata.timestamp's microseconds are rewritten in place, so every body
// has its own SHA-256, hence its own dedupe key, and is parsed, validated,
// derived and stored in its own transaction (answer 201). The database grows
// by one run per iteration, as it would under real uploads.
func BenchmarkUploadAPI(b *testing.B) {
	s := webtest.NewSite(b)
	body := webtest.ReadFile(b, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	const stamp = `"timestamp": "2026-10-07T14:37:51.`
	at := bytes.Index(body, []byte(stamp))
	if at < 0 || bytes.Count(body, []byte(stamp)) != 1 {
		b.Fatalf("the sample has no single %s", stamp)
	}
	at += len(stamp) // the six digits of the fraction
	c := s.Client()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		copy(body[at:at+6], fmt.Sprintf("%06d", i%1000000))
		i++
		req, err := http.NewRequest("POST", s.URL+"/api/v1/runs", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if st, _ := do(b, c, req); st != http.StatusCreated {
			b.Fatalf("upload %d = %d, want 201", i, st)
		}
	}
}

// BenchmarkUploadDuplicate posts the same 0.7.8 sample again and again: the
// whole parse/validate/derive still runs (the dedupe key is known only
// after parsing), then the insert finds the key and answers 200 with the
// first run.
func BenchmarkUploadDuplicate(b *testing.B) {
	s := webtest.NewSite(b)
	body := webtest.ReadFile(b, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	post := func() int {
		req, err := http.NewRequest("POST", s.URL+"/api/v1/runs", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		st, _ := do(b, s.Client(), req)
		return st
	}
	if st := post(); st != http.StatusCreated {
		b.Fatalf("first upload = %d, want 201", st)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if st := post(); st != http.StatusOK {
			b.Fatalf("duplicate upload = %d, want 200", st)
		}
	}
}

// BenchmarkUploadSeedParallel is scripts/uploadload in a benchmark: four
// clients at once post distinct copies of the seed document (48 decode
// cells, 5 prefill rows) as multipart uploads through the real router to a
// real database, each answered 201. It is the one to profile the whole
// upload path with (-cpuprofile): body, parse, derive, transaction.
func BenchmarkUploadSeedParallel(b *testing.B) {
	s := webtest.NewSite(b)
	doc := webtest.ReadFile(b, "internal/demo/runs/seed-rtx3060.bench.json")
	number := regexp.MustCompile(`"aggregate_tps": [0-9.]+`)
	if !number.Match(doc) {
		b.Fatal("the seed document has no aggregate_tps to vary")
	}
	var n atomic.Int64
	b.SetParallelism(max(1, 4/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		c := s.Client()
		for pb.Next() {
			var body bytes.Buffer
			w := multipart.NewWriter(&body)
			part, _ := w.CreateFormFile("file", "benchmark_results.json")
			part.Write(number.ReplaceAll(doc, fmt.Appendf(nil, `"aggregate_tps": %d.5`, 1000+n.Add(1))))
			w.Close()
			req, _ := http.NewRequest("POST", s.URL+"/api/v1/runs", &body)
			req.Header.Set("Content-Type", w.FormDataContentType())
			resp, err := c.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated {
				b.Errorf("upload = %d, want 201", resp.StatusCode)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}

// BenchmarkUploadSeedHandler is one API upload of the seed document as
// uploadload sends it (multipart, every aggregate_tps the same number, a
// new one each time) handed straight to the site's handler: no socket, no
// client, the body built in place before the handler runs. What it counts
// is the server's own work per upload, the database's answers aside: the
// one to count instructions of (scripts/instructions.sh), where the whole
// server's CPU per upload moves by a fifth between runs.
func BenchmarkUploadSeedHandler(b *testing.B) {
	s := webtest.NewSite(b)
	doc := webtest.ReadFile(b, "internal/demo/runs/seed-rtx3060.bench.json")
	number := regexp.MustCompile(`"aggregate_tps": [0-9.]+`)
	doc = number.ReplaceAll(doc, []byte(`"aggregate_tps": 1000000.5`))
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("file", "benchmark_results.json")
	part.Write(doc)
	w.Close()
	raw := body.Bytes()
	at := regexp.MustCompile(`"aggregate_tps": 1000000\.5`).FindAllIndex(raw, -1)
	if len(at) == 0 {
		b.Fatal("the seed document has no aggregate_tps to vary")
	}
	h, kind := s.Config.Handler, w.FormDataContentType()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		digits := fmt.Appendf(nil, "%07d", 1000000+i%9000000)
		for _, m := range at {
			copy(raw[m[0]+len(`"aggregate_tps": `):], digits)
		}
		req := httptest.NewRequest("POST", "/api/v1/runs", bytes.NewReader(raw))
		req.Header.Set("Content-Type", kind)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("upload %d = %d, want 201: %s", i, rec.Code, rec.Body)
		}
	}
}
