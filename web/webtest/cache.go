package webtest

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// NewCountedSite is NewSite with the site's metrics at hand, for the tests
// that count what the page cache keeps (CacheCounts).
func NewCountedSite(t testing.TB) (*Site, *site.Metrics) {
	t.Helper()
	st, dbURL := dbtest.New(t)
	m := site.NewMetrics()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, Metrics: m}))
	t.Cleanup(srv.Close)
	return &Site{Server: srv, Store: st, DBURL: dbURL}, m
}

// CacheCounts reads the page cache's hits, misses and entries from m.
func CacheCounts(t testing.TB, m *site.Metrics) (hits, misses, entries int) {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	text, _ := io.ReadAll(rec.Body)
	read := func(series string) int {
		m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\d+)$`).FindSubmatch(text)
		if m == nil {
			t.Fatalf("no %s in the metrics", series)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	return read(`speedmatrix_page_cache_requests_total{outcome="hit"}`), read(`speedmatrix_page_cache_requests_total{outcome="miss"}`),
		read("speedmatrix_page_cache_entries")
}
