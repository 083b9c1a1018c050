package site_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// rawID finds a message id that leaked onto a page untranslated.
var rawID = regexp.MustCompile(`\b(site|nav|common|unit|status|reason|provenance|hardware|decode_mode|prefill_mode|run|home|upload|error|problem|account|share|compare|chart|demo|browse|leaderboard|entity|search|metric|docs|calc)\.[a-z_]+(\.[a-z_]+)*\b`)

// TestEveryPageInEveryLocale renders each page in each language and checks
// the language it claims, the switcher, and that no message id shows raw.
func TestEveryPageInEveryLocale(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	pages := map[string]int{"/": 200, "/upload": 200, "/runs/" + id: 200, "/runs/nosuchrun": 404, "/no/such/page": 404,
		// browse: the seed run's identities
		"/runs": 200, "/leaderboard": 200, "/search": 200, "/hardware/rtx-3060-12gb": 200, "/engines/vllm": 200,
		"/models/qwen3-5-4b": 200, "/models/redhatai-qwen3-5-4b-fp8-dynamic": 200, "/submitters/sandberg": 200}
	// Accounts: the API guide and an organisation page.
	webtest.SeedOrg(t, s)
	pages["/docs/api"], pages["/orgs/lil-lab"], pages["/orgs/no-such-org"] = 200, 200, 404
	pages["/docs/formats"] = 200
	// The calculator: the form, a result, a refusal, and its documentation.
	pages["/calculator"], pages["/calculator?gpu=rtx-3060-12gb&model=Qwen/Qwen3.5-4B&weights=fp8&kv=int4&spec_tokens=2"] = 200, 200
	pages["/calculator?gpu=no-such-gpu&model=Qwen/Qwen3.5-4B"], pages["/docs/calculator"] = 422, 200
	// Share: the page made for iframes.
	pages["/runs/"+id+"/embed"] = 200
	// Compare: a comparison, the picker, and a refusal.
	other := s.SeedLilbench(t)
	pages["/compare?runs="+id+","+other], pages["/compare/with/"+id], pages["/compare?runs="+id+",nosuchrun"] = 200, 200, 404
	// The planner: the bare form, the seed hardware's answer with its
	// estimates, a GPU only the calculator knows, and a refusal.
	pages["/plan"], pages["/plan?hardware=rtx-3060-12gb&preset=team"] = 200, 200
	pages["/plan?hardware=2x-rtx-3090-24gb&preset=documents"], pages["/plan?hardware=rtx-3060-12gb&context=-1"] = 200, 422
	for _, lang := range i18n.Languages {
		for path, status := range pages {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			resp, body := s.Get(t, path+sep+"lang="+lang.Tag)
			if resp.StatusCode != status {
				t.Errorf("%s in %s = %d, want %d", path, lang.Tag, resp.StatusCode, status)
			}
			if !strings.Contains(body, `<html lang="`+lang.Tag+`"`) {
				t.Errorf("%s in %s: <html lang> is not %s", path, lang.Tag, lang.Tag)
			}
			if resp.Header.Get("Content-Language") != lang.Tag {
				t.Errorf("%s in %s: Content-Language %q", path, lang.Tag, resp.Header.Get("Content-Language"))
			}
			doc := page404ok(t, body)
			if m := rawID.FindString(doc); m != "" {
				t.Errorf("%s in %s shows a raw message id %q", path, lang.Tag, m)
			}
			for _, other := range i18n.Languages {
				if !strings.Contains(body, `hreflang="`+other.Tag+`"`) {
					t.Errorf("%s in %s lacks the hreflang alternate for %s", path, lang.Tag, other.Tag)
				}
			}
		}
	}
}

// page404ok returns the visible text of a page (tags stripped).
func page404ok(t *testing.T, body string) string {
	t.Helper()
	return regexp.MustCompile(`(?s)<[^>]*>`).ReplaceAllString(body, " ")
}

func TestLanguageChoice(t *testing.T) {
	s := webtest.NewSite(t)
	// Accept-Language picks Japanese; Vary names what chose it.
	resp, body := s.Get(t, "/", "Accept-Language: ja-JP,ja;q=0.9,en;q=0.5")
	if !strings.Contains(body, `<html lang="ja"`) {
		t.Errorf("Accept-Language ja did not give Japanese")
	}
	vary := strings.Join(resp.Header.Values("Vary"), ",")
	if !strings.Contains(vary, "Accept-Language") || !strings.Contains(vary, "Cookie") {
		t.Errorf("Vary = %q", vary)
	}
	// ?lang= wins over Accept-Language and is remembered in a cookie...
	resp, body = s.Get(t, "/upload?lang=zh-Hans", "Accept-Language: ja")
	if !strings.Contains(body, `<html lang="zh-Hans"`) {
		t.Errorf("?lang=zh-Hans did not win")
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "lang" {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != "zh-Hans" {
		t.Fatalf("no lang cookie: %v", resp.Cookies())
	}
	// ...which then wins over Accept-Language on a page without ?lang=.
	_, body = s.Get(t, "/", "Cookie: lang=zh-Hans", "Accept-Language: ja")
	if !strings.Contains(body, `<html lang="zh-Hans"`) {
		t.Errorf("the cookie did not win over Accept-Language")
	}
	// An unknown language falls back to English.
	_, body = s.Get(t, "/?lang=xx", "Accept-Language: sv")
	if !strings.Contains(body, `<html lang="en"`) {
		t.Errorf("unknown languages did not fall back to English")
	}
}

// TestReportETag: a revalidation answers 304 without a body, and the ETag
// differs per language so no cache serves one language to another reader.
func TestReportETag(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	resp, _ := s.Get(t, "/runs/"+id+"?lang=en")
	etag := resp.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	resp, body := s.Get(t, "/runs/"+id+"?lang=en", "If-None-Match: "+etag)
	if resp.StatusCode != http.StatusNotModified || body != "" {
		t.Errorf("revalidation = %d with %d bytes, want 304 and none", resp.StatusCode, len(body))
	}
	resp, _ = s.Get(t, "/runs/"+id+"?lang=ja", "If-None-Match: "+etag)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == etag {
		t.Errorf("Japanese with the English ETag = %d, ETag %s", resp.StatusCode, resp.Header.Get("ETag"))
	}
}

func TestHealth(t *testing.T) {
	s := webtest.NewSite(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		if resp, body := s.Get(t, path); resp.StatusCode != 200 {
			t.Errorf("%s = %d %s", path, resp.StatusCode, body)
		}
	}
}

func TestStatic(t *testing.T) {
	s := webtest.NewSite(t)
	_, page := s.Get(t, "/")
	css := regexp.MustCompile(`href="(/static/css/site\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(page)
	if css == nil {
		t.Fatal("page links no versioned stylesheet")
	}
	resp, body := s.Get(t, css[1])
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || !strings.Contains(body, "tabular-nums") {
		t.Errorf("stylesheet = %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
}

// TestReportGzip: the report is served gzipped to clients that take it (from
// the cache on the second request), plain to others, with the same page.
func TestReportGzip(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	_, plain := s.Get(t, "/runs/"+id, "Accept-Encoding: identity")
	for i := 0; i < 2; i++ {
		resp, body := s.Get(t, "/runs/"+id, "Accept-Encoding: gzip, deflate")
		if resp.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("request %d: Content-Encoding %q", i, resp.Header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		html, _ := io.ReadAll(zr)
		if string(html) != plain || len(body) >= len(plain)/3 {
			t.Errorf("request %d: gzip body of %d bytes does not inflate to the %d-byte page", i, len(body), len(plain))
		}
	}
	// A forged Host or a stray parameter never ends up in a cached page.
	_, forged := s.Get(t, "/runs/"+id+"?utm=x", "Host: evil.example")
	if !strings.Contains(forged, "evil.example") || strings.Contains(forged, "utm=x") {
		t.Errorf("the page should link its own origin and drop stray parameters")
	}
	_, again := s.Get(t, "/runs/"+id, "Accept-Encoding: identity")
	if strings.Contains(again, "evil.example") || again != plain {
		t.Errorf("a forged Host leaked into the cached page")
	}
}
