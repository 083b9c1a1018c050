package regressions_test

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestRegressionsBetweenVersions: a copy of the seed at vLLM 0.31.0, 1.25×
// faster, makes the seed's 0.32.0 a regression of −20 % at 0 × 1 once the
// fold has run: /regressions (renewed from its cached empty copy) lists it
// with a "Report it" text naming both versions and both runs' addresses;
// its filters, the API and the Atom feed answer it; the seed's report and
// its setup's history link to it.
func TestRegressionsBetweenVersions(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	if webtest.Page(t, s, "/regressions").Find("section.regression").Length() != 0 {
		t.Fatal("a regression with one version")
	}
	old := s.SeedCopy(t, "0.31.0", 1.25, nil)
	if _, err := s.Store.FoldVersionChanges(t.Context()); err != nil {
		t.Fatal(err)
	}
	doc := webtest.Page(t, s, "/regressions")
	item := doc.Find("section#change-" + old + "-" + seed)
	if item.Length() != 1 {
		t.Fatalf("/regressions lacks the change (the cached page not renewed?): %q", doc.Find("article").Text())
	}
	if h := strings.Join(strings.Fields(item.Find("h2").Text()), " "); h != "Regression vLLM 0.31.0 → 0.32.0" {
		t.Errorf("heading %q", h)
	}
	if m := item.Find("p.median b").Text(); !strings.HasPrefix(m, "-20") || !strings.HasSuffix(m, "at 0 × 1") {
		t.Errorf("change %q, want -20 %% at 0 × 1", m)
	}
	text := item.Find(".report-it textarea").Text()
	for _, want := range []string{"0.31.0", "0.32.0", s.URL + "/runs/" + old, s.URL + "/runs/" + seed, "--kv-cache-dtype int4_per_token_head"} {
		if !strings.Contains(text, want) {
			t.Errorf("the Report it text lacks %q:\n%s", want, text)
		}
	}
	if href, _ := item.Find("a.issue-link").Attr("href"); !strings.HasPrefix(href, "https://github.com/vllm-project/vllm/issues/new") {
		t.Errorf("issue link %q", href)
	}

	// Filters: the setup's engine and hardware list it, others do not.
	for path, want := range map[string]int{
		"/regressions?engine=vllm":                        1,
		"/regressions?engine=vllm&hardware=rtx-3060-12gb": 1,
		"/regressions?engine=sglang":                      0,
		"/regressions?hardware=rtx-4090":                  0,
	} {
		d := webtest.Page(t, s, path)
		if n := d.Find("section.regression").Length(); n != want || (want == 0 && d.Find("article p.notes").Length() != 1) {
			t.Errorf("%s lists %d changes, want %d", path, n, want)
		}
	}

	// The API, with its filters.
	for path, want := range map[string]int{
		"/api/v1/regressions":                 1,
		"/api/v1/regressions?engine=vllm":     1,
		"/api/v1/regressions?kind=regression": 1,
		"/api/v1/regressions?kind=speedup":    0,
		"/api/v1/regressions?engine=sglang":   0,
	} {
		resp, body := s.Get(t, path)
		var out struct {
			Changes []struct {
				Kind         string
				OldVersion   string `json:"old_version"`
				NewVersion   string `json:"new_version"`
				HeadlineCell *struct {
					ChangePercent float64 `json:"change_percent"`
				} `json:"headline_cell"`
				OldRun struct{ URL string } `json:"old_run"`
			} `json:"changes"`
		}
		if err := json.Unmarshal([]byte(body), &out); err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s = %d %v: %.300s", path, resp.StatusCode, err, body)
		}
		if len(out.Changes) != want {
			t.Errorf("%s: %d changes, want %d", path, len(out.Changes), want)
			continue
		}
		if want == 1 {
			c := out.Changes[0]
			if c.Kind != "regression" || c.OldVersion != "0.31.0" || c.NewVersion != "0.32.0" || c.HeadlineCell == nil || c.HeadlineCell.ChangePercent > -19.99 || c.HeadlineCell.ChangePercent < -20.01 ||
				c.OldRun.URL != s.URL+"/runs/"+old {
				t.Errorf("%s: %+v", path, c)
			}
		}
	}
	if resp, _ := s.Get(t, "/api/v1/regressions?kind=sideways"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("?kind=sideways = %d, want 400", resp.StatusCode)
	}

	// The feed, of the site and of the engine, is Atom with the entry.
	for path, want := range map[string]int{"/regressions.atom": 1, "/regressions.atom?engine=vllm": 1, "/regressions.atom?engine=sglang": 0} {
		resp, body := s.Get(t, path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/atom+xml") {
			t.Fatalf("%s = %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		var feed struct {
			XMLName xml.Name
			Entries []struct {
				Title   string `xml:"title"`
				Content string `xml:"content"`
			} `xml:"entry"`
		}
		dec := xml.NewDecoder(strings.NewReader(body))
		dec.Strict = true
		if err := dec.Decode(&feed); err != nil || feed.XMLName.Space != "http://www.w3.org/2005/Atom" {
			t.Fatalf("%s is no Atom feed (%v): %.300s", path, err, body)
		}
		if len(feed.Entries) != want {
			t.Errorf("%s: %d entries, want %d", path, len(feed.Entries), want)
		} else if want == 1 && (!strings.Contains(feed.Entries[0].Title, "0.31.0 → 0.32.0") || !strings.Contains(feed.Entries[0].Content, s.URL+"/runs/"+seed)) {
			t.Errorf("%s entry %q", path, feed.Entries[0].Title)
		}
		if lm := resp.Header.Get("Last-Modified"); (want == 1) != (lm != "") {
			t.Errorf("%s Last-Modified %q", path, lm)
		}
	}

	// The seed's report and its setup's history link to the change.
	anchor := "#change-" + old + "-" + seed
	rep := webtest.Page(t, s, "/runs/"+seed)
	if rep.Find(`#differs .regression-links a[href$="`+anchor+`"]`).Length() != 1 {
		t.Errorf("the seed's report does not link to the regression: %q", rep.Find("#differs").Text())
	}
	hist, ok := rep.Find("p.history-link a").Attr("href")
	if !ok {
		t.Fatal("the seed's report has no history link")
	}
	if webtest.Page(t, s, hist).Find(`.regression-links a[href$="`+anchor+`"]`).Length() != 1 {
		t.Errorf("%s does not link to the regression", hist)
	}
	if webtest.Page(t, s, "/").Find(`footer a[href="/regressions"]`).Length() != 1 {
		t.Error("the footer does not link to /regressions")
	}
}
