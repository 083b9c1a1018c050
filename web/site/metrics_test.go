package site_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestMetrics: the Prometheus text counts requests by route pattern and
// status, cache hits and misses and bytes, uploads by format and outcome,
// the pool, and notifications received.
func TestMetrics(t *testing.T) {
	st, dbURL := dbtest.New(t)
	m := site.NewMetrics()
	m.WatchPool(st.PoolStat)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); st.Listen(ctx, m.Notified) }()
	defer func() { cancel(); <-done }()
	b, _ := i18n.Default()
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, Metrics: m}))
	defer srv.Close()
	s := &webtest.Site{Server: srv, Store: st, DBURL: dbURL}
	time.Sleep(100 * time.Millisecond) // let the listener start listening
	id := s.Seed(t)
	for range 3 {
		s.Get(t, "/runs/"+id)
	}
	s.Get(t, "/runs/nosuchrun")
	s.Get(t, "/api/v1/runs/"+id) // a route of a router mounted below the site's
	s.Get(t, "/nope")
	resp, out := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	s.Post(t, "application/json", []byte(`{"not": "a benchmark"}`))

	scrape := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		body, _ := io.ReadAll(rec.Body)
		return string(body)
	}
	value := func(text, series string) float64 {
		re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` ([0-9.e+-]+)$`)
		got := re.FindStringSubmatch(text)
		if got == nil {
			return -1
		}
		v, _ := strconv.ParseFloat(got[1], 64)
		return v
	}
	time.Sleep(200 * time.Millisecond) // the notifications of the uploads
	text := scrape()
	for series, want := range map[string]float64{
		`speedmatrix_http_requests_total{method="GET",route="/runs/{id}",status="200"}`:        3,
		`speedmatrix_http_requests_total{method="GET",route="/runs/{id}",status="404"}`:        1,
		`speedmatrix_http_requests_total{method="POST",route="/api/v1/runs",status="201"}`:     1,
		`speedmatrix_http_requests_total{method="GET",route="/api/v1/runs/{id}",status="200"}`: 1,
		`speedmatrix_http_requests_total{method="GET",route="unmatched",status="404"}`:         1,
		`speedmatrix_page_cache_requests_total{outcome="hit"}`:                                 2,
		`speedmatrix_page_cache_requests_total{outcome="miss"}`:                                2,
		`speedmatrix_ingest_total{format="llm-inference-bench",outcome="created"}`:             1,
		`speedmatrix_ingest_total{format="unknown",outcome="refused"}`:                         1,
		`speedmatrix_http_request_duration_seconds_count{route="/runs/{id}"}`:                  4,
	} {
		if got := value(text, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
	for _, series := range []string{"speedmatrix_page_cache_bytes", "speedmatrix_db_pool_connections_max", "speedmatrix_notifications_received_total"} {
		if value(text, series) <= 0 {
			t.Errorf("%s = %v, want > 0", series, value(text, series))
		}
	}
	if resp, err := http.Get(srv.URL + "/metrics"); err != nil || resp.StatusCode != 404 {
		t.Errorf("/metrics on the public listener: %v, %v", resp.StatusCode, err)
	}
}
