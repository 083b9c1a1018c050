package main

import (
	"slices"
	"testing"
)

// TestPattern: addresses of one route, whatever their ids, slugs and
// query values, group together; the query's names tell variants apart.
func TestPattern(t *testing.T) {
	for addr, want := range map[string]string{
		"/":                              "/",
		"/runs/abcdefghij":               "/runs/{id}",
		"/runs/abcdefghij.csv":           "/runs/{id}.csv",
		"/runs/abcdefghij/card.png?lang": "/runs/{id}/card.png?lang",
		"/runs/abcdefghij?cell=0-1":      "/runs/{id}?cell",
		"/api/v1/runs/abcdefghij":        "/api/v1/runs/{id}",
		"/models/qwen-qwen3-8b":          "/models/{slug}",
		"/hardware/2x-rtx-3.5":           "/hardware/{slug}",
		"/compare/with/abcdefghij":       "/compare/with/{id}",
		"/sitemap-pt-BR.xml":             "/sitemap-{lang}.xml",
		"/static/css/site.css?v=1a2b":    "/static/{file}?v",
		"/leaderboard?metric=x&ctx=0":    "/leaderboard?ctx&metric",
		"/account/runs/abcdefghij/edit":  "/account/runs/{id}/edit",
	} {
		if got := pattern(addr); got != want {
			t.Errorf("pattern(%q) = %q, want %q", addr, got, want)
		}
	}
}

// TestLinks: a page's links of its own site are followed, as path and
// query without fragment; other sites, mail and data are not; a GET form
// gives one address per choice, a POST form none (its action is asked
// with GET, as any form's).
func TestLinks(t *testing.T) {
	page := `<a href="/runs/abcdefghij#share">r</a> <a href="http://127.0.0.1:18320/runs?lang=de">l</a>
<a href="https://evil.example/x">x</a> <a href="mailto:a@b.c">m</a> <img src="data:image/png;base64,AA">
<a href="?sort=oldest&amp;lang=ja">s</a>
<form method="get" action="/leaderboard"><select name="ctx"><option value="0">0</option><option value="8192">8K</option></select>
<input type="checkbox" name="flagged" value="1"></form>
<form method="post" action="/logout"><select name="x"><option value="1">1</option></select></form>`
	got := links("127.0.0.1:18320", "/runs", "text/html; charset=utf-8", []byte(page))
	want := []string{"/leaderboard", "/leaderboard?ctx=0", "/leaderboard?ctx=8192", "/leaderboard?flagged=1",
		"/logout", "/runs/abcdefghij", "/runs?lang=de", "/runs?sort=oldest&lang=ja"}
	if !slices.Equal(got, want) {
		t.Errorf("links = %q\nwant %q", got, want)
	}
	// In JSON, absolute addresses and fields named for links; a file path
	// of the document is no address.
	doc := `{"url": "http://127.0.0.1:18320/runs/abcdefghij", "next": "/api/v1/runs?after=x",
		"launch_command": "/opt/venv/bin/vllm serve", "model": {"path": "/models/x"}}`
	got = links("127.0.0.1:18320", "/api/v1/runs", "application/json", []byte(doc))
	want = []string{"/api/v1/runs?after=x", "/runs/abcdefghij"}
	if !slices.Equal(got, want) {
		t.Errorf("JSON links = %q\nwant %q", got, want)
	}
}

// TestNormalise: what differs between two builds by construction is
// replaced, and nothing else.
func TestNormalise(t *testing.T) {
	s := side{version: "dev-abc123", uploads: true}
	in := `v dev-abc123 /upload/drafts/abcdefghijklmnopqrstuvwxyz /static/css/site.css?v=0d19e2e1 lilb_AbC123 ` +
		`"uploaded_at": "2026-12-07T05:58:18Z" "measured_at": "2026-10-07T14:37:52Z"`
	want := `v {version} /upload/drafts/{draft} /static/css/site.css?v={hash} lilb_{token} ` +
		`"uploaded_at": "{now}" "measured_at": "2026-10-07T14:37:52Z"`
	if got := string(normalise(s, []byte(in))); got != want {
		t.Errorf("normalise:\n got %s\nwant %s", got, want)
	}
	s.uploads = false
	if got := string(normalise(s, []byte(`"uploaded_at": "2026-12-07T05:58:18Z"`))); got != `"uploaded_at": "2026-12-07T05:58:18Z"` {
		t.Errorf("a page's upload time was replaced: %s", got)
	}
}
