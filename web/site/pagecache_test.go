package site_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPageCacheEncodings: a cached page is the same bytes in identity,
// gzip and brotli, each with a strong ETag of its own that revalidates
// (304) whichever encoding the client had.
func TestPageCacheEncodings(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	path := "/runs/" + id + "?lang=en"
	resp, plain := s.Fetch(t, path, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(plain, []byte("</html>")) {
		t.Fatalf("identity: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(plain))
	}
	tags := map[string]string{"": resp.Header.Get("ETag")}
	for _, enc := range []string{"gzip", "br"} {
		resp, body := s.Fetch(t, path, enc)
		if resp.Header.Get("Content-Encoding") != enc {
			t.Fatalf("%s: Content-Encoding %q", enc, resp.Header.Get("Content-Encoding"))
		}
		var got []byte
		if enc == "gzip" {
			got = gunzip(t, body)
		} else {
			got, _ = io.ReadAll(brotli.NewReader(bytes.NewReader(body)))
		}
		if !bytes.Equal(got, plain) {
			t.Errorf("%s body differs from identity (%d vs %d bytes)", enc, len(got), len(plain))
		}
		if !strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Encoding") {
			t.Errorf("%s: Vary %q", enc, resp.Header.Values("Vary"))
		}
		tags[enc] = resp.Header.Get("ETag")
	}
	seen := map[string]bool{}
	for enc, tag := range tags {
		if tag == "" || strings.HasPrefix(tag, "W/") || seen[tag] {
			t.Errorf("%q: ETag %q (want strong and one per encoding: %v)", enc, tag, tags)
		}
		seen[tag] = true
		resp, body := s.Fetch(t, path, "gzip", "If-None-Match: "+tag)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != tags["gzip"] {
			t.Errorf("If-None-Match %s = %d (%d bytes), ETag %q", tag, resp.StatusCode, len(body), resp.Header.Get("ETag"))
		}
	}
	// Another language is another page, which the English tag does not name.
	if resp, _ := s.Fetch(t, "/runs/"+id+"?lang=ja", "gzip", "If-None-Match: "+tags["gzip"]); resp.StatusCode != 200 {
		t.Errorf("Japanese with the English ETag = %d", resp.StatusCode)
	}
}

// TestPageCacheInvalidation: an upload renews the lists at once on the
// instance that stored it, and leaves other runs' reports as they were
// (same ETag), while hiding a run renews its report (404).
func TestPageCacheInvalidation(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	report := "/runs/" + seed
	r1, _ := s.Fetch(t, report, "gzip")
	if r1.StatusCode != 200 {
		t.Fatalf("report = %d", r1.StatusCode)
	}
	_, list := s.Get(t, "/runs")
	resp, out := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	newID := out["id"].(string)
	if strings.Contains(list, newID) {
		t.Fatal("the list had the new run before it was uploaded")
	}
	if _, list = s.Get(t, "/runs"); !strings.Contains(list, "/runs/"+newID) {
		t.Error("/runs after the 201 lacks the new run")
	}
	if r2, _ := s.Fetch(t, report, "gzip"); r2.Header.Get("ETag") != r1.Header.Get("ETag") {
		t.Errorf("another run's report changed its ETag: %s → %s", r1.Header.Get("ETag"), r2.Header.Get("ETag"))
	}
	if err := s.Store.HideRun(t.Context(), seed); err != nil {
		t.Fatal(err)
	}
	if r3, _ := s.Fetch(t, report, "gzip"); r3.StatusCode != http.StatusNotFound {
		t.Errorf("hidden run's report = %d, want 404", r3.StatusCode)
	}
}

// TestPageCacheKeepsNoCookie: the language cookie set for the reader who
// filled the cache is not replayed to the next one, who has it already.
func TestPageCacheKeepsNoCookie(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	first, _ := s.Fetch(t, "/runs/"+id+"?lang=ja", "gzip")
	if first.Header.Get("Set-Cookie") == "" {
		t.Fatal("?lang=ja without the cookie sets no cookie")
	}
	again, _ := s.Fetch(t, "/runs/"+id+"?lang=ja", "gzip", "Cookie: lang=ja")
	if again.StatusCode != 200 || again.Header.Get("Set-Cookie") != "" {
		t.Errorf("cached page for a reader with the cookie: %d, Set-Cookie %q", again.StatusCode, again.Header.Get("Set-Cookie"))
	}
	if again.Header.Get("ETag") != first.Header.Get("ETag") {
		t.Errorf("not the cached page: ETag %s, then %s", first.Header.Get("ETag"), again.Header.Get("ETag"))
	}
}

// TestPageCacheHitAnswersAsMiss: a warm hit carries the headers and body
// the same page's miss had (security, language, Vary, the page's own, the
// embed page's framing), in every encoding and language, and a 304 for
// its ETag; its access log line says what it sent.
func TestPageCacheHitAnswersAsMiss(t *testing.T) {
	st, dbURL := dbtest.New(t)
	b, _ := i18n.Default()
	var log webtest.LockedBuffer
	changes := &changingStore{Store: st}
	srv := httptest.NewServer(site.New(site.Config{Store: changes, Bundle: b, Version: "test",
		Logger: slog.New(slog.NewTextHandler(&log, nil)), Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}}))
	defer srv.Close()
	s := &webtest.Site{Server: srv, Store: st, DBURL: dbURL}
	id := s.Seed(t)
	for _, page := range []string{"/runs/" + id, "/runs/" + id + "/embed", "/runs/" + id + ".json", "/runs/" + id + "/badge.svg", "/", "/runs", "/leaderboard"} {
		for _, headers := range [][]string{
			{"Accept-Encoding: gzip"}, {"Accept-Encoding: br, gzip"}, {},
			{"Accept-Encoding: gzip", "Accept-Language: de-DE,de;q=0.9"},
			{"Accept-Encoding: gzip", "Cookie: lang=ja; session=abc"},
		} {
			changes.touch(id) // the page is stale: the first GET is its miss
			path := page
			line := regexp.MustCompile(`msg=http method=GET path=` + regexp.QuoteMeta(page) + ` status=200 bytes=[1-9][0-9]* ms=`)
			before := len(line.FindAllString(log.String(), -1))
			missResp, miss := s.Get(t, path, headers...)
			hitResp, hit := s.Get(t, path, headers...)
			got := 0
			for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
				// A line is written once its answer is sent.
				if got = len(line.FindAllString(log.String(), -1)) - before; got >= 2 {
					break
				}
			}
			if got != 2 {
				t.Errorf("%s %v: %d access log lines of its 200s, want the miss's and the hit's", path, headers, got)
			}
			if missResp.StatusCode != 200 || hitResp.StatusCode != 200 {
				t.Fatalf("%s %v: %d then %d", path, headers, missResp.StatusCode, hitResp.StatusCode)
			}
			missResp.Header.Del("Date")
			hitResp.Header.Del("Date")
			if !equalHeaders(missResp.Header, hitResp.Header) || miss != hit {
				t.Errorf("%s %v: the hit differs from the miss:\nmiss %v\nhit  %v", path, headers, missResp.Header, hitResp.Header)
			}
			if hitResp.Header.Get("Content-Security-Policy") == "" || len(hitResp.Header.Values("Vary")) < 2 {
				t.Errorf("%s %v: hit without the chain's headers: %v", path, headers, hitResp.Header)
			}
			tag := hitResp.Header.Get("Etag")
			notMod, _ := s.Get(t, path, append([]string{"If-None-Match: " + tag}, headers...)...)
			if notMod.StatusCode != http.StatusNotModified || notMod.Header.Get("Etag") != tag {
				t.Errorf("%s %v: If-None-Match %s = %d %q, want 304", path, headers, tag, notMod.StatusCode, notMod.Header.Get("Etag"))
			}
		}
	}
}

// equalHeaders compares two responses' headers, values in order.
func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}
