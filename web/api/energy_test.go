package api_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestEnergyReportSwitch: the report's grid shows the metric and price its
// address names, every address is a page of its own in the page cache,
// and a value the page cannot read is refused, naming the parameter.
func TestEnergyReportSwitch(t *testing.T) {
	st, _ := dbtest.New(t)
	m := site.NewMetrics()
	b, _ := i18n.Default()
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, Metrics: m}))
	defer srv.Close()
	s := &webtest.Site{Server: srv, Store: st}
	id := webtest.UploadSample(t, s, "llm-inference-bench/benchmark_results_0.7.8.json")

	resp, plain := s.Get(t, "/runs/"+id+"?lang=en")
	if resp.StatusCode != 200 || strings.Contains(plain, "Tokens per joule of GPU board energy") || !strings.Contains(plain, `value="0.3"`) ||
		!strings.Contains(plain, "total tok/s · rows are context length") {
		t.Fatalf("the plain report (%d) shows an energy metric in the grid or not the default price", resp.StatusCode)
	}
	path := "/runs/" + id + "?kwh=0.25&lang=en&metric=tokens_per_joule"
	resp, body := s.Get(t, path)
	if resp.StatusCode != 200 {
		t.Fatalf("%s = %d", path, resp.StatusCode)
	}
	for _, want := range []string{
		"Tokens per joule of GPU board energy", // the grid's caption under the metric
		// and its subtitle names the metric, not total tok/s
		"Tokens per joule · rows are context length, columns are simultaneous requests",
		"0.392 tok/J · 388 W", // the 0×1 cell: 152.2 tok/s on 388 W
		`aria-current="true"><b>Tokens per joule</b>`,
		`id="kwh" name="kwh" type="text" inputmode="decimal" size="6" value="0.25"`,
		"cost at 0.25 per kWh", // the energy table's cost, under its watt-hours
	} {
		if !strings.Contains(body, want) {
			t.Errorf("%s lacks %q", path, want)
		}
	}
	// Another price is another page, not the first one served again.
	_, other := s.Get(t, "/runs/"+id+"?kwh=0.4&lang=en&metric=cost_per_mtok")
	if !strings.Contains(other, "at 0.40 per kWh") || strings.Contains(other, "at 0.25 per kWh") {
		t.Error("?kwh=0.4 did not show its own price")
	}
	for range 2 { // both again: hits
		s.Get(t, path)
		s.Get(t, "/runs/"+id+"?kwh=0.4&lang=en&metric=cost_per_mtok")
	}
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	text, _ := io.ReadAll(rec.Body)
	if got := metricValue(string(text), `speedmatrix_page_cache_entries`); got != 3 {
		t.Errorf("page cache entries = %v, want 3 (plain, two variants)", got)
	}
	if got := metricValue(string(text), `speedmatrix_page_cache_requests_total{outcome="hit"}`); got != 4 {
		t.Errorf("page cache hits = %v, want 4", got)
	}

	for _, c := range []struct{ query, param string }{
		{"kwh=abc", "kwh"}, {"kwh=-1", "kwh"}, {"metric=watts", "metric"},
	} {
		resp, body := s.Get(t, "/runs/"+id+"?lang=en&"+c.query)
		if resp.StatusCode != 400 || !strings.Contains(body, "“"+c.param+"”") {
			t.Errorf("?%s = %d, want 400 naming %s", c.query, resp.StatusCode, c.param)
		}
	}
	// A price written with a decimal comma, as the form lets a reader type it.
	if _, body := s.Get(t, "/runs/"+id+"?kwh=0%2C5&lang=en&metric=cost_per_mtok"); !strings.Contains(body, "at 0.50 per kWh") {
		t.Error("?kwh=0,5 is not read as 0.5")
	}

	// Every other spelling of a price is sent, for good, to the one
	// address of that price, the rest of the query kept; the default
	// price's address has none.
	noFollow := *s.Client()
	noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for query, want := range map[string]string{
		"kwh=0.30&lang=en&metric=cost_per_mtok":  "?lang=en&metric=cost_per_mtok",
		"kwh=0.3&metric=tokens_per_joule":        "?metric=tokens_per_joule",
		"kwh=0.250&lang=de&metric=cost_per_mtok": "?kwh=0.25&lang=de&metric=cost_per_mtok",
		"kwh=0%2C25&lang=ja":                     "?kwh=0.25&lang=ja",
		"kwh=+0.25":                              "?kwh=0.25",
	} {
		resp, err := noFollow.Get(s.URL + "/runs/" + id + "?" + query)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusMovedPermanently || loc != "/runs/"+id+want {
			t.Errorf("?%s = %d to %q, want 301 to %s", query, resp.StatusCode, loc, want)
		}
	}
	for _, query := range []string{"kwh=0.25&lang=en&metric=cost_per_mtok", "lang=en&metric=cost_per_mtok", ""} {
		resp, err := noFollow.Get(s.URL + "/runs/" + id + "?" + query)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("?%s = %d, want the page", query, resp.StatusCode)
		}
	}
}

// metricValue reads one series of a Prometheus text scrape, -1 if absent.
func metricValue(text, series string) float64 {
	got := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` ([0-9.e+-]+)$`).FindStringSubmatch(text)
	if got == nil {
		return -1
	}
	v, _ := strconv.ParseFloat(got[1], 64)
	return v
}

// TestEnergyRunJSON: the run JSON of the 0.7.8 sample, through the API,
// has the 0×1 cell's board power and tokens per joule, no throttle verdict
// (the file says nothing about throttling), and matches the OpenAPI
// document, as the lil-bench sample with its power series does.
func TestEnergyRunJSON(t *testing.T) {
	s := webtest.NewSite(t)
	_, v := openAPIDocument(t, s)
	id := webtest.UploadSample(t, s, "llm-inference-bench/benchmark_results_0.7.8.json")
	lil := webtest.UploadSample(t, s, "lil-bench/lil_bench_result_2gpu.json")
	old := webtest.UploadSample(t, s, "llm-inference-bench/benchmark_results_0.2.0.json")
	for _, id := range []string{id, lil, old} {
		checkCall(t, s, v, "GET", apiCall{path: "/api/v1/runs/" + id, status: 200})
	}

	var doc struct {
		Decode []struct {
			Context, Concurrency int
			PowerW               *float64 `json:"power_w"`
			TokensPerJoule       *float64 `json:"tokens_per_joule"`
			Throttle             *string  `json:"throttle"`
		} `json:"decode"`
		Telemetry *struct {
			PowerLimitW *float64 `json:"power_limit_w"`
		} `json:"telemetry"`
	}
	resp, raw := s.Get(t, "/api/v1/runs/"+id)
	if resp.StatusCode != 200 {
		t.Fatalf("run JSON = %d", resp.StatusCode)
	}
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range doc.Decode {
		if c.Context != 0 || c.Concurrency != 1 {
			continue
		}
		found = true
		if c.PowerW == nil || *c.PowerW != 388 {
			t.Errorf("0×1 power_w = %v, want 388", c.PowerW)
		}
		if c.TokensPerJoule == nil || math.Abs(*c.TokensPerJoule/0.392-1) > 0.01 {
			t.Errorf("0×1 tokens_per_joule = %v, want 0.392 within 1 %%", c.TokensPerJoule)
		}
		if c.Throttle != nil {
			t.Errorf("0×1 throttle = %q, want null", *c.Throttle)
		}
	}
	if !found {
		t.Error("no 0×1 cell")
	}
	if doc.Telemetry == nil || doc.Telemetry.PowerLimitW == nil || *doc.Telemetry.PowerLimitW != 700 {
		t.Errorf("run telemetry = %+v, want the 700 W limit", doc.Telemetry)
	}
	// A file without telemetry says so with nulls, never with zeros.
	_, raw = s.Get(t, "/api/v1/runs/"+old)
	if !strings.Contains(raw, `"telemetry": null`) || !strings.Contains(raw, `"power_w": null`) {
		t.Error("the 0.2.0 run's JSON does not say its power is unknown with nulls")
	}
}
