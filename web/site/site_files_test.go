package site_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/static"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestHeadAnswersLikeGet: HEAD on a page answers the GET's status and
// headers without a body (405 before), for link checkers and monitors.
func TestHeadAnswersLikeGet(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	for path, want := range map[string]int{"/": 200, "/runs/" + id: 200, "/leaderboard": 200, "/upload": 200,
		"/runs/" + id + "/badge.svg": 200, "/no/such/page": 404} {
		req, _ := http.NewRequest(http.MethodHead, s.URL+path, nil)
		resp, err := s.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || len(body) != 0 || resp.Header.Get("Content-Type") == "" {
			t.Errorf("HEAD %s = %d, %d body bytes, Content-Type %q; want %d, none, set",
				path, resp.StatusCode, len(body), resp.Header.Get("Content-Type"), want)
		}
	}
}

// TestFavicon: the page links an icon and /favicon.ico answers with one,
// so no page logs a 404 for it.
func TestFavicon(t *testing.T) {
	s := webtest.NewSite(t)
	resp, body := s.Get(t, "/favicon.ico")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/x-icon" || !strings.HasPrefix(body, "\x00\x00\x01\x00") {
		t.Errorf("/favicon.ico = %d %q, %d bytes starting %q", resp.StatusCode, resp.Header.Get("Content-Type"), len(body), body[:min(4, len(body))])
	}
	_, home := s.Get(t, "/")
	m := regexp.MustCompile(`<link rel="icon" href="([^"]+)"`).FindStringSubmatch(home)
	if m == nil || m[1] != static.URL(static.Favicon) {
		t.Fatalf("home page icon link %v, want %s", m, static.URL(static.Favicon))
	}
	if resp, _ := s.Get(t, m[1]); resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("%s = %d, Cache-Control %q", m[1], resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
}

// TestStaticGzip: the stylesheet goes out gzipped to clients that take
// it, as is to the others, and both are the same file.
func TestStaticGzip(t *testing.T) {
	s := webtest.NewSite(t)
	want, err := static.FS.ReadFile("css/site.css")
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{DisableCompression: true} // keep Content-Encoding visible
	client := &http.Client{Transport: tr}
	for _, ae := range []string{"gzip, deflate, br", "identity", "gzip;q=0"} {
		req, _ := http.NewRequest("GET", s.URL+static.URL("css/site.css"), nil)
		req.Header.Set("Accept-Encoding", ae)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = resp.Body
		gz := resp.Header.Get("Content-Encoding") == "gzip"
		if gz {
			if r, err = gzip.NewReader(resp.Body); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := io.ReadAll(r)
		resp.Body.Close()
		if gz != (ae == "gzip, deflate, br") || string(got) != string(want) ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "text/css") || !strings.Contains(resp.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: gzip %v, %d of %d bytes match, Content-Type %q, Vary %q", ae, gz,
				len(got), len(want), resp.Header.Get("Content-Type"), resp.Header.Get("Vary"))
		}
	}
}

// TestCanonicalOfTheBareAddress: the address without ?lang= names itself
// as canonical (it is the x-default); a translation names its language.
func TestCanonicalOfTheBareAddress(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	canonical := regexp.MustCompile(`<link rel="canonical" href="([^"]+)"`)
	for path, want := range map[string]string{"/": "/", "/?lang=ja": "/?lang=ja", "/runs/" + id: "/runs/" + id,
		"/runs/" + id + "?lang=ja": "/runs/" + id + "?lang=ja", "/leaderboard": "/leaderboard"} {
		_, body := s.Get(t, path, "Accept-Language: ja")
		if m := canonical.FindStringSubmatch(body); m == nil || m[1] != s.URL+want {
			t.Errorf("%s: canonical %v, want %s", path, m, s.URL+want)
		}
	}
}

// TestBadgeOnTheReport: the report's badge image is sized (no layout
// shift) and pins the run's revision, which may be cached for good; the
// bare badge address keeps its hour.
func TestBadgeOnTheReport(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	doc := webtest.Page(t, s, "/runs/"+id+"?lang=en")
	img := doc.Find(".share-badge img")
	src, w := img.AttrOr("src", ""), img.AttrOr("width", "")
	if !strings.Contains(src, "&v=") || w == "" || img.AttrOr("height", "") != "20" {
		t.Fatalf("badge img src %q width %q height %q", src, w, img.AttrOr("height", ""))
	}
	resp, svg := s.Get(t, src)
	if !strings.Contains(resp.Header.Get("Cache-Control"), "immutable") || !strings.Contains(svg, `width="`+w+`"`) {
		t.Errorf("%s: Cache-Control %q; the SVG's width is not the img's %s: %.120s", src, resp.Header.Get("Cache-Control"), w, svg)
	}
	if resp, _ := s.Get(t, "/runs/"+id+"/badge.svg"); resp.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Errorf("bare badge Cache-Control %q", resp.Header.Get("Cache-Control"))
	}
}
