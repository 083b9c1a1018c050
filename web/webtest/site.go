package webtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// Site is a test server over a fresh database.
type Site struct {
	*httptest.Server
	Store *store.Store
	DBURL string // database URL, for counting rows
}

// NewSite is a test site over a fresh database, uploads not rate-limited.
func NewSite(t testing.TB) *Site {
	t.Helper()
	st, url := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	// Uploads are not rate-limited here (benchmarks upload thousands);
	// the rate-limit tests use NewPolicySite.
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}}))
	t.Cleanup(srv.Close)
	return &Site{Server: srv, Store: st, DBURL: url}
}

// Seed stores the seed run through the real ingest and returns its id.
func (s *Site) Seed(t testing.TB) string {
	t.Helper()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Ingest(context.Background(), s.Store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// Get fetches path with optional headers ("Name: value").
func (s *Site) Get(t testing.TB, path string, headers ...string) (*http.Response, string) {
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

// NewConfigSite is NewSite with the config changed by edit (a base URL,
// a policy, a logger). Its BaseURL is the test server's own origin, as a
// deployment's BASE_URL names the site (mail and GitHub sign-in need one),
// unless edit sets another.
func NewConfigSite(t testing.TB, edit func(*site.Config)) *Site {
	t.Helper()
	st, dbURL := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(nil)
	cfg := site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}, BaseURL: "http://" + srv.Listener.Addr().String()}
	if edit != nil {
		edit(&cfg)
	}
	srv.Config.Handler = site.New(cfg)
	srv.Start()
	t.Cleanup(srv.Close)
	return &Site{Server: srv, Store: st, DBURL: dbURL}
}

// SeedVerified stores the seed run as its submitter Sandberg uploaded it
// on the seed site: with Sandberg's account, so the name is verified.
func (s *Site) SeedVerified(t testing.TB) string {
	t.Helper()
	if err := s.Store.CreateSubmitter(context.Background(), "Sandberg", ""); err != nil {
		t.Fatal(err)
	}
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	u.Account = "Sandberg"
	res, err := ingest.Ingest(context.Background(), s.Store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// MustConn is a connection to the site's database, closed with t.
func MustConn(t testing.TB, s *Site) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// Post sends body to the API and decodes the JSON answer.
func (s *Site) Post(t testing.TB, contentType string, body []byte, headers ...string) (*http.Response, map[string]any) {
	t.Helper()
	return s.PostTo(t, "/api/v1/runs", contentType, body, headers...)
}

// PostTo is post to another address (a query, another door).
func (s *Site) PostTo(t testing.TB, path, contentType string, body []byte, headers ...string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer is not JSON (%d): %s", resp.StatusCode, raw)
	}
	return resp, out
}

// RowCounts counts every table, to prove a refused upload stored nothing.
func (s *Site) RowCounts(t testing.TB) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var out []string
	for _, table := range []string{"runs", "run_sources", "decode_cells", "prefill_rows"} {
		var n int
		if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s=%d", table, n))
	}
	return strings.Join(out, " ")
}

// Do sends a request with headers ("Name: value") and returns status and body.
func (s *Site) Do(t testing.TB, method, path string, body []byte, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp, buf.String()
}

// Fetch GETs path with an Accept-Encoding of the caller's choosing (Go's
// client adds and undoes gzip itself unless asked not to), returning the
// raw body.
func (s *Site) Fetch(t testing.TB, path, encoding string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// PostForm posts a multipart body to the upload form as a browser of
// the site does, redirects not followed.
func (s *Site) PostForm(t *testing.T, body []byte, contentType string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL+"/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	client := *s.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp, buf.String()
}

// DraftCount counts the drafts table's rows.
func (s *Site) DraftCount(t testing.TB) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM drafts").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// SeedLilbench stores the demo's lil-bench run (2× RTX PRO 6000) through
// the real ingest and returns its id.
func (s *Site) SeedLilbench(t testing.TB) string {
	t.Helper()
	u, err := demo.Upload(demo.Runs[1])
	if err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Ingest(context.Background(), s.Store, u)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

// InsertScaled stores the hand-built run (reporttest) with its total tok/s
// times f under key, and returns its id.
func (s *Site) InsertScaled(t testing.TB, key string, f float64, edit func(*run.Run)) string {
	t.Helper()
	r := reporttest.Run()
	for i := range r.Decode {
		if c := &r.Decode[i]; c.TotalTPS != nil {
			c.TotalTPS = run.F(*c.TotalTPS * f)
		}
	}
	if edit != nil {
		edit(r)
	}
	id, _, err := s.Store.InsertRun(context.Background(), r, key, []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// UploadVariant uploads the seed run's own JSON document changed by edit,
// under another source hash (so it is a new run), and returns its id.
func (s *Site) UploadVariant(t *testing.T, seedID, hash string, edit func(doc map[string]any)) string {
	t.Helper()
	_, body := s.Get(t, "/runs/"+seedID+".json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	doc["source"].(map[string]any)["sha256"] = strings.Repeat(hash, 64/len(hash))
	edit(doc)
	raw, _ := json.Marshal(doc)
	resp, out := s.Post(t, "application/json", raw)
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	return out["id"].(string)
}

// NewPolicySite is NewSite with an upload policy and a logger of the test's.
func NewPolicySite(t testing.TB, p site.UploadPolicy, log *slog.Logger) *Site {
	t.Helper()
	st, url := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: log, Uploads: p}))
	t.Cleanup(srv.Close)
	return &Site{Server: srv, Store: st, DBURL: url}
}

// UploadSample stores a sample file (a path under testdata/formats/)
// through the API and returns its run id.
func UploadSample(t testing.TB, s *Site, name string) string {
	t.Helper()
	resp, out := s.Post(t, "application/json", ReadFile(t, "testdata/formats/"+name))
	if resp.StatusCode != 201 {
		t.Fatalf("%s = %d %v", name, resp.StatusCode, out)
	}
	return out["id"].(string)
}
