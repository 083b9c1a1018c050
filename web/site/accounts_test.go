package site_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// newPolicySite is newSite with an upload policy and a logger of the test's.
func newPolicySite(t testing.TB, p site.UploadPolicy, log *slog.Logger) *testSite {
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
	return &testSite{Server: srv, store: st, url: url}
}

// mintToken creates submitter handle (in org, when given) and a token of
// theirs, as `speedmatrix submitter create` and `token create` do.
func mintToken(t testing.TB, s *testSite, handle, org string) string {
	t.Helper()
	ctx := context.Background()
	if err := s.store.CreateSubmitter(ctx, handle, org); err != nil {
		t.Fatal(err)
	}
	tok, err := accounts.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.store.CreateToken(ctx, handle, tok.Hash, tok.Prefix); err != nil {
		t.Fatal(err)
	}
	return tok.Secret
}

// seedOrg makes the organisation lil-lab with one submitter and one run
// uploaded with their token, and returns the run's id.
func seedOrg(t testing.TB, s *testSite) string {
	t.Helper()
	tok := mintToken(t, s, "Sandberg", "lil-lab")
	mintToken(t, s, "quiet-one", "lil-lab")
	resp, out := s.post(t, "application/json", readFile(t, "../../testdata/formats/lil-bench/lil_bench_result_2gpu.json"),
		"Authorization: Bearer "+tok)
	if resp.StatusCode != 201 {
		t.Fatalf("upload with a token = %d %v", resp.StatusCode, out)
	}
	return out["id"].(string)
}

// lilBenchBody is what lil-bench sends: the document as compact JSON,
// gzip level 9.
func lilBenchBody(t testing.TB, path string) []byte {
	t.Helper()
	var compact bytes.Buffer
	if err := json.Compact(&compact, readFile(t, path)); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(compact.Bytes())
	_ = zw.Close()
	return gz.Bytes()
}

// lilBench sends a request the way lil-bench 1.4 does (its headers, no
// redirects followed) and returns the status and the JSON answer.
func lilBench(t testing.TB, s *testSite, method, path, token string, body []byte) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("User-Agent", "lil-bench/1.4")
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", "gzip")
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s answered %d with no JSON (lil-bench would crash): %q", method, path, resp.StatusCode, raw)
	}
	return resp, out
}

// TestLilBenchClient replays lil-bench 1.4: whoami, then the gzip upload,
// then a resend of the same run_id, and the 401/403 paths it stops on.
func TestLilBenchClient(t *testing.T) {
	s := newSite(t)
	tok := mintToken(t, s, "Sandberg", "")
	body := lilBenchBody(t, "../../testdata/formats/lil-bench/lil_bench_result_2gpu.json")

	resp, out := lilBench(t, s, "GET", "/api/bench/whoami", tok, nil)
	if resp.StatusCode != 200 || out["login"] != "Sandberg" {
		t.Errorf("whoami = %d %v, want 200 {login: Sandberg}", resp.StatusCode, out)
	}
	resp, out = lilBench(t, s, "POST", "/api/bench/runs", tok, body)
	url, _ := out["url"].(string)
	id, _ := out["id"].(string)
	if resp.StatusCode != 201 || id == "" || url != s.URL+"/runs/"+id {
		t.Fatalf("upload = %d %v, want 201 {id, url}", resp.StatusCode, out)
	}
	// `lil-bench upload FILE` may send the same run again: the same run.
	resp, again := lilBench(t, s, "POST", "/api/bench/runs", tok, body)
	if resp.StatusCode/100 != 2 || again["id"] != id || again["url"] != url {
		t.Errorf("resend = %d %v, want 2xx with the first run %s", resp.StatusCode, again, id)
	}
	// The report names the verified submitter and lil-bench's integrity.
	page, html := s.get(t, "/runs/"+id+"?lang=en")
	if page.StatusCode != 200 || !strings.Contains(html, `data-verified="true"`) ||
		!strings.Contains(html, "verified submitter") || !strings.Contains(html, `data-badge="integrity-modified"`) {
		t.Errorf("report lacks the verified mark or the integrity badge")
	}
	var doc struct {
		Submitter struct {
			Slug, Name string
			Verified   bool
		} `json:"submitter"`
		Profile   string `json:"profile"`
		Integrity string `json:"integrity"`
	}
	_, raw := s.get(t, "/api/v1/runs/"+id)
	if err := json.Unmarshal([]byte(raw), &doc); err != nil || doc.Submitter.Name != "Sandberg" || !doc.Submitter.Verified ||
		doc.Profile != "standard" || doc.Integrity != "modified" {
		t.Errorf("API document = %+v (%v), want Sandberg verified, standard, modified", doc, err)
	}

	// A token the site does not know, a malformed one, none: 401 with an
	// error lil-bench shows. A revoked one: 403.
	unknown, _ := accounts.NewToken()
	for name, token := range map[string]string{"unknown": unknown.Secret, "malformed": "lilb_short", "none": ""} {
		resp, out := lilBench(t, s, "GET", "/api/bench/whoami", token, nil)
		if msg, _ := out["error"].(string); resp.StatusCode != 401 || msg == "" {
			t.Errorf("whoami with %s token = %d %v, want 401 with an error", name, resp.StatusCode, out)
		}
	}
	resp, out = lilBench(t, s, "POST", "/api/bench/runs", unknown.Secret, body)
	if msg, _ := out["error"].(string); resp.StatusCode != 401 || msg == "" {
		t.Errorf("upload with an unknown token = %d %v, want 401 with an error", resp.StatusCode, out)
	}
	if _, err := s.store.RevokeToken(context.Background(), accounts.Hash(tok), ""); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/bench/whoami", "/api/bench/runs"} {
		method, b := "GET", []byte(nil)
		if strings.HasSuffix(path, "runs") {
			method, b = "POST", body
		}
		if resp, out := lilBench(t, s, method, path, tok, b); resp.StatusCode != 403 || out["error"] == "" {
			t.Errorf("%s with a revoked token = %d %v, want 403", path, resp.StatusCode, out)
		}
	}
}

// TestQuickProfile: a quick lil-bench run is stored and shown with its
// badge.
func TestQuickProfile(t *testing.T) {
	s := newSite(t)
	quick := strings.Replace(string(readFile(t, "../../testdata/formats/lil-bench/lil_bench_result_2gpu.json")),
		`"profile": "standard"`, `"profile": "quick"`, 1)
	if !strings.Contains(quick, `"profile": "quick"`) {
		t.Fatal("the sample has no standard profile to change")
	}
	resp, out := s.post(t, "application/json", []byte(quick))
	if resp.StatusCode != 201 {
		t.Fatalf("quick upload = %d %v", resp.StatusCode, out)
	}
	for _, lang := range i18n.Languages {
		_, html := s.get(t, "/runs/"+out["id"].(string)+"?lang="+lang.Tag)
		if !strings.Contains(html, `data-badge="quick"`) {
			t.Errorf("%s: the quick run shows no quick badge", lang.Tag)
		}
	}
}
