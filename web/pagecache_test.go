package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// fetch GETs path with an Accept-Encoding of the caller's choosing (Go's
// client adds and undoes gzip itself unless asked not to), returning the
// raw body.
func (s *site) fetch(t testing.TB, path, encoding string, headers ...string) (*http.Response, []byte) {
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
	s := newSite(t)
	id := s.seed(t)
	path := "/runs/" + id + "?lang=en"
	resp, plain := s.fetch(t, path, "")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "" || !bytes.Contains(plain, []byte("</html>")) {
		t.Fatalf("identity: %d %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Encoding"), len(plain))
	}
	tags := map[string]string{"": resp.Header.Get("ETag")}
	for _, enc := range []string{"gzip", "br"} {
		resp, body := s.fetch(t, path, enc)
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
		resp, body := s.fetch(t, path, "gzip", "If-None-Match: "+tag)
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != tags["gzip"] {
			t.Errorf("If-None-Match %s = %d (%d bytes), ETag %q", tag, resp.StatusCode, len(body), resp.Header.Get("ETag"))
		}
	}
	// Another language is another page, which the English tag does not name.
	if resp, _ := s.fetch(t, "/runs/"+id+"?lang=ja", "gzip", "If-None-Match: "+tags["gzip"]); resp.StatusCode != 200 {
		t.Errorf("Japanese with the English ETag = %d", resp.StatusCode)
	}
}

// TestPageCacheInvalidation: an upload renews the lists at once on the
// instance that stored it, and leaves other runs' reports as they were
// (same ETag), while hiding a run renews its report (404).
func TestPageCacheInvalidation(t *testing.T) {
	s := newSite(t)
	seed := s.seed(t)
	report := "/runs/" + seed
	r1, _ := s.fetch(t, report, "gzip")
	if r1.StatusCode != 200 {
		t.Fatalf("report = %d", r1.StatusCode)
	}
	_, list := s.get(t, "/runs")
	resp, out := s.post(t, "application/json", readFile(t, "../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	newID := out["id"].(string)
	if strings.Contains(list, newID) {
		t.Fatal("the list had the new run before it was uploaded")
	}
	if _, list = s.get(t, "/runs"); !strings.Contains(list, "/runs/"+newID) {
		t.Error("/runs after the 201 lacks the new run")
	}
	if r2, _ := s.fetch(t, report, "gzip"); r2.Header.Get("ETag") != r1.Header.Get("ETag") {
		t.Errorf("another run's report changed its ETag: %s → %s", r1.Header.Get("ETag"), r2.Header.Get("ETag"))
	}
	if err := s.store.HideRun(t.Context(), seed); err != nil {
		t.Fatal(err)
	}
	if r3, _ := s.fetch(t, report, "gzip"); r3.StatusCode != http.StatusNotFound {
		t.Errorf("hidden run's report = %d, want 404", r3.StatusCode)
	}
}

// TestPageCacheKeepsNoCookie: the language cookie set for the reader who
// filled the cache is not replayed to the next one, who has it already.
func TestPageCacheKeepsNoCookie(t *testing.T) {
	s := newSite(t)
	id := s.seed(t)
	first, _ := s.fetch(t, "/runs/"+id+"?lang=ja", "gzip")
	if first.Header.Get("Set-Cookie") == "" {
		t.Fatal("?lang=ja without the cookie sets no cookie")
	}
	again, _ := s.fetch(t, "/runs/"+id+"?lang=ja", "gzip", "Cookie: lang=ja")
	if again.StatusCode != 200 || again.Header.Get("Set-Cookie") != "" {
		t.Errorf("cached page for a reader with the cookie: %d, Set-Cookie %q", again.StatusCode, again.Header.Get("Set-Cookie"))
	}
	if again.Header.Get("ETag") != first.Header.Get("ETag") {
		t.Errorf("not the cached page: ETag %s, then %s", first.Header.Get("ETag"), again.Header.Get("ETag"))
	}
}
