package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

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
