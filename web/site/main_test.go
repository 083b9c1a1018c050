package site_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// testSite is a test server over a fresh database.
type testSite struct {
	*httptest.Server
	store *store.Store
	url   string // database URL, for counting rows
}

func newSite(t testing.TB) *testSite {
	t.Helper()
	st, url := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Uploads are not rate-limited here (benchmarks upload thousands);
	// accounts_test.go tests the limits with a site of its own.
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}}))
	t.Cleanup(srv.Close)
	return &testSite{Server: srv, store: st, url: url}
}

// seed stores the seed run through the real ingest and returns its id.
func (s *testSite) seed(t testing.TB) string {
	t.Helper()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Ingest(context.Background(), s.store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// get fetches path with optional headers ("Name: value").
func (s *testSite) get(t testing.TB, path string, headers ...string) (*http.Response, string) {
	t.Helper()
	return getWith(t, s.Client(), s.URL+path, headers...)
}

// getWith GETs url with client and the given "Key: value" headers (Host
// among them), and returns the response and its body.
func getWith(t testing.TB, client *http.Client, url string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		if k == "Host" {
			req.Host = v
		}
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// tsv reads a table typed from the seed page (testdata/seed/*.tsv).
func tsv(t testing.TB, name string) [][]string {
	t.Helper()
	f, err := os.Open("../../testdata/seed/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	return rows
}

// changingStore is a store that can tell the server a run changed
// without writing anything: a page cached before is stale after it, so
// the next request is a real miss (the page rebuilt, as after an edit).
// Tests and benchmarks make their misses so; a new query string no longer
// does (the cache keeps only the parameters a page reads).
type changingStore struct {
	*store.Store
	hooks []func(store.Change)
}

// OnChange is store.Store's, and keeps f for touch.
func (c *changingStore) OnChange(f func(store.Change)) {
	c.Store.OnChange(f)
	c.hooks = append(c.hooks, f)
}

// touch tells the server that run id changed (and so the site).
func (c *changingStore) touch(id string) {
	for _, f := range c.hooks {
		f(store.Change{Runs: []string{id}, Site: true})
	}
}
