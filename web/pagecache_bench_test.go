package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
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

// benchHandler is the site's handler over a database holding the seed
// run, and the store that tells it the run changed (a miss next).
func benchHandler(b *testing.B) (http.Handler, string, *changingStore) {
	s := newSite(b)
	id := s.seed(b)
	bundle, _ := i18n.Default()
	st := &changingStore{Store: s.store}
	return web.New(web.Config{Store: st, Bundle: bundle, Version: "bench", Logger: slog.New(slog.DiscardHandler)}), id, st
}

// BenchmarkCachedReportWarm is a warm hit of the seed report, gzip
// accepted, through every middleware: what each of wrk's requests costs
// the server beyond the network.
func BenchmarkCachedReportWarm(b *testing.B) {
	h, id, _ := benchHandler(b)
	benchWarm(b, h, "/runs/"+id)
}

// BenchmarkCachedReportWarmQuery is a warm hit of the seed report's
// badge as the report links it (?lang=&v=, the parameters its page
// reads, in their order): the query is kept as it is, no copy made.
func BenchmarkCachedReportWarmQuery(b *testing.B) {
	h, id, _ := benchHandler(b)
	benchWarm(b, h, "/runs/"+id+"/badge.svg?lang=en&v=1", "Cookie: lang=en")
}

// BenchmarkCachedReportWarmJunk is a warm hit of the seed report asked
// with a parameter no page reads, which the hit drops (a copy of the query).
func BenchmarkCachedReportWarmJunk(b *testing.B) {
	h, id, _ := benchHandler(b)
	benchWarm(b, h, "/runs/"+id+"?x=1")
}

// benchWarm times warm hits of path, gzip accepted, through every
// middleware: what each of wrk's requests costs the server beyond the
// network.
func benchWarm(b *testing.B, h http.Handler, path string, headers ...string) {
	req := httptest.NewRequest("GET", path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	for _, kv := range headers {
		k, v, _ := strings.Cut(kv, ": ")
		req.Header.Set(k, v)
	}
	raw := req.URL.RawQuery
	h.ServeHTTP(&discard{h: http.Header{}}, req)
	b.ReportAllocs()
	for b.Loop() {
		req.URL.RawQuery = raw // a hit reduces it in place
		h.ServeHTTP(&discard{h: http.Header{}}, req)
	}
}

// BenchmarkCachedReportCold is a miss of the seed report each time (its
// run changed, as after an edit): load, build, render, gzip, keep.
func BenchmarkCachedReportCold(b *testing.B) {
	h, id, st := benchHandler(b)
	b.ReportAllocs()
	for b.Loop() {
		st.touch(id)
		req := httptest.NewRequest("GET", "/runs/"+id, nil)
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
	h, id, st := benchHandler(b)
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
		st.touch(id) // the next request is a miss, the one after a hit again
		mid := time.Now()
		cold := httptest.NewRequest("GET", "/runs/"+id, nil)
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
