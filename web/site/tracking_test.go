package site_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestTrackingParamsShareThePage: a report linked with click-tracking
// parameters (a forum's utm_source, Facebook's fbclid, new on every
// click) is the page already cached, and the page does not carry them in
// its links; a parameter a page reads still makes a page of its own.
func TestTrackingParamsShareThePage(t *testing.T) {
	st, dbURL := dbtest.New(t)
	m := site.NewMetrics()
	b, _ := i18n.Default()
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, Metrics: m}))
	defer srv.Close()
	s := &webtest.Site{Server: srv, Store: st, DBURL: dbURL}
	id := s.Seed(t)
	outcomes := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		text, _ := io.ReadAll(rec.Body)
		return strings.Join(regexp.MustCompile(`(?m)^speedmatrix_page_cache_requests_total\{outcome="(\w+)"\} (\d+)$`).
			FindAllString(string(text), -1), "; ")
	}
	_, plain := s.Get(t, "/runs/"+id)
	for _, q := range []string{"?utm_source=forum&utm_medium=post", "?fbclid=IwAR0first", "?fbclid=IwAR0second&utm_campaign=x"} {
		_, body := s.Get(t, "/runs/"+id+q)
		if body != plain {
			t.Errorf("%s: a page other than the report's", q)
		}
		if strings.Contains(body, "fbclid") || strings.Contains(body, "utm_") {
			t.Errorf("%s: the page carries the tracking parameters", q)
		}
	}
	want := `speedmatrix_page_cache_requests_total{outcome="hit"} 3; speedmatrix_page_cache_requests_total{outcome="miss"} 1; speedmatrix_page_cache_requests_total{outcome="stale"} 0`
	if got := outcomes(); got != want {
		t.Errorf("after the report and three tracked links: %s, want %s", got, want)
	}
	s.Get(t, "/runs/"+id+"?lang=ja&utm_source=forum")
	if got := outcomes(); !strings.Contains(got, `outcome="miss"} 2`) {
		t.Errorf("another language with a tracking parameter: %s, want a second miss", got)
	}
}
