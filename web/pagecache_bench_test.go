package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web"
)

// discard is a ResponseWriter that keeps nothing, so the benchmarks time
// the handler alone, not a network or a recorder's buffer.
type discard struct{ h http.Header }

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) Write(b []byte) (int, error) { return len(b), nil }
func (d *discard) WriteHeader(int)             {}

// benchHandler is the site's handler over a database holding the seed run.
func benchHandler(b *testing.B) (http.Handler, string) {
	s := newSite(b)
	id := s.seed(b)
	bundle, _ := i18n.Default()
	return web.New(web.Config{Store: s.store, Bundle: bundle, Version: "bench", Logger: slog.New(slog.DiscardHandler)}), id
}

// BenchmarkCachedReportWarm is a warm hit of the seed report, gzip
// accepted, through every middleware: what each of wrk's requests costs
// the server beyond the network.
func BenchmarkCachedReportWarm(b *testing.B) {
	h, id := benchHandler(b)
	req := httptest.NewRequest("GET", "/runs/"+id, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(&discard{h: http.Header{}}, req)
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(&discard{h: http.Header{}}, req)
	}
}

// BenchmarkCachedReportCold is a miss of the seed report each time (a new
// query string): load, build, render, gzip, keep.
func BenchmarkCachedReportCold(b *testing.B) {
	h, id := benchHandler(b)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n++
		req := httptest.NewRequest("GET", "/runs/"+id+"?cold="+strconv.Itoa(n), nil)
		req.Header.Set("Accept-Encoding", "gzip")
		h.ServeHTTP(&discard{h: http.Header{}}, req)
	}
}

// warmPerCold is how many warm hits BenchmarkCachedReportRatio times per
// miss, so both sides get enough of each iteration's time.
const warmPerCold = 20

// BenchmarkCachedReportRatio interleaves warm hits and misses of the seed
// report in one run, so other work on the machine weighs on both alike,
// and reports their cost side by side: warm-ns and cold-ns per request
// and cold/warm, the miss's throughput as a share of a hit's (the figure
// scripts/perf.sh measures over the network, where a hit also pays for
// the connection, so its ratio there is higher).
func BenchmarkCachedReportRatio(b *testing.B) {
	h, id := benchHandler(b)
	warm := httptest.NewRequest("GET", "/runs/"+id, nil)
	warm.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(&discard{h: http.Header{}}, warm)
	var warmTime, coldTime time.Duration
	n := 0
	for b.Loop() {
		n++
		start := time.Now()
		for range warmPerCold {
			h.ServeHTTP(&discard{h: http.Header{}}, warm)
		}
		mid := time.Now()
		cold := httptest.NewRequest("GET", "/runs/"+id+"?cold="+strconv.Itoa(n), nil)
		cold.Header.Set("Accept-Encoding", "gzip")
		h.ServeHTTP(&discard{h: http.Header{}}, cold)
		warmTime += mid.Sub(start)
		coldTime += time.Since(mid)
	}
	warmNs := float64(warmTime.Nanoseconds()) / float64(n*warmPerCold)
	coldNs := float64(coldTime.Nanoseconds()) / float64(n)
	b.ReportMetric(warmNs, "warm-ns")
	b.ReportMetric(coldNs, "cold-ns")
	b.ReportMetric(warmNs/coldNs, "cold/warm")
}
