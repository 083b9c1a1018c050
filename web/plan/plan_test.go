package plan_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// planAnswer is the part of GET /api/v1/plan's answer the tests read.
type planAnswer struct {
	Setups []struct {
		Run      string `json:"run"`
		Model    string `json:"model"`
		MaxUsers int    `json:"max_users"`
		Cell     *struct {
			Context, Concurrency int
			PerRequestTPS        float64 `json:"per_request_tps"`
		} `json:"cell"`
		ContextUsed int `json:"context_used"`
	} `json:"setups"`
	Estimates []struct {
		Model      string `json:"model"`
		UpperBound bool   `json:"upper_bound"`
	} `json:"estimates"`
}

// TestPlanSeedAnswers: the seed run (RTX 3060 12GB, vLLM, Qwen3.5-4B FP8)
// answers the planner's questions as its grid says, the page and the API
// alike: 8 users at 16K and 20 tok/s, 2 at 40 tok/s (43.5 at 2 users,
// 39.3 at 4), the 32K row for 20,000 tokens, and 8 at context 0, where 16
// users queued.
func TestPlanSeedAnswers(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	for _, c := range []struct {
		query       string
		users, used int
	}{
		{"context=16384&min_user_tps=20", 8, 16384},
		{"context=16384&min_user_tps=40", 2, 16384},
		{"context=20000&min_user_tps=30", 2, 32768},
		{"context=0&min_user_tps=20", 8, 0},
	} {
		q := "?hardware=rtx-3060-12gb&" + c.query
		resp, body := s.Get(t, "/api/v1/plan"+q)
		if resp.StatusCode != 200 {
			t.Fatalf("API %s: %d %s", q, resp.StatusCode, body)
		}
		var a planAnswer
		if err := json.Unmarshal([]byte(body), &a); err != nil {
			t.Fatal(err)
		}
		if len(a.Setups) != 1 || a.Setups[0].Run != id || a.Setups[0].MaxUsers != c.users ||
			a.Setups[0].ContextUsed != c.used || a.Setups[0].Cell == nil || a.Setups[0].Cell.Concurrency != c.users {
			t.Errorf("API %s: %+v, want run %s serving %d users at context %d", q, a.Setups, id, c.users, c.used)
		}
		resp, page := s.Get(t, "/plan"+q)
		if resp.StatusCode != 200 {
			t.Fatalf("page %s: %d", q, resp.StatusCode)
		}
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
		rows := doc.Find("ol.plan-rows > li.plan-row")
		if got := rows.First().Find("dl.plan-facts dd strong").Text(); rows.Length() != 1 || !strings.HasPrefix(got, strconv.Itoa(c.users)+" user") {
			t.Errorf("page %s: %d rows, first serves %q, want %d users", q, rows.Length(), got, c.users)
		}
		if href, _ := rows.First().Find("dl.plan-facts dd a").Attr("href"); !strings.HasPrefix(href, "/runs/"+id) {
			t.Errorf("page %s: the cell links to %q, want the seed run", q, href)
		}
	}
	// The estimates: models of the calculator's table that fit 12 GB,
	// upper bounds, never among the measured setups.
	_, body := s.Get(t, "/api/v1/plan?hardware=rtx-3060-12gb&preset=chat")
	var a planAnswer
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Estimates) == 0 {
		t.Error("no estimate for the RTX 3060 12GB")
	}
	for _, e := range a.Estimates {
		if !e.UpperBound || e.Model == "" {
			t.Errorf("estimate %+v: want a model's upper bound", e)
		}
	}
}

// TestPlanRefusals: a parameter the planner cannot use is a 422 naming
// it, on the page (the form, with the problem linked to its field) and
// in the API's error format; the first visit is the bare form.
func TestPlanRefusals(t *testing.T) {
	s := webtest.NewSite(t)
	s.Seed(t)
	for query, param := range map[string]string{
		"hardware=no-such-gpu":                  "hardware",
		"hardware=rtx-3060-12gb&context=-1":     "context",
		"hardware=rtx-3060-12gb&min_user_tps=x": "min_user_tps",
		"hardware=rtx-3060-12gb&preset=party":   "preset",
		"context=8192":                          "hardware",
	} {
		resp, body := s.Get(t, "/api/v1/plan?"+query)
		var refusal struct {
			Error    string
			Problems []struct{ Path, Message string }
		}
		_ = json.Unmarshal([]byte(body), &refusal)
		if resp.StatusCode != 422 || len(refusal.Problems) != 1 || refusal.Problems[0].Path != param ||
			!strings.HasPrefix(refusal.Error, param+": ") {
			t.Errorf("API ?%s: %d %s, want 422 naming %s", query, resp.StatusCode, body, param)
		}
		resp, page := s.Get(t, "/plan?"+query)
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
		href, _ := doc.Find("#plan-errors li a").Attr("href")
		if resp.StatusCode != 422 || href != "#plan-"+param || doc.Find("form#plan-form").Length() != 1 ||
			doc.Find("#measured").Length() != 0 {
			t.Errorf("page ?%s: %d, problem links to %q, want 422 with the form and the problem at #plan-%s", query, resp.StatusCode, href, param)
		}
	}
	resp, page := s.Get(t, "/plan")
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
	if resp.StatusCode != 200 || doc.Find("form#plan-form").Length() != 1 || doc.Find("[role=alert]").Length() != 0 ||
		doc.Find(`#plan-hardware option[value="rtx-3060-12gb"]`).Length() != 1 {
		t.Errorf("/plan: %d, want 200 with the form, the measured hardware to pick and no problem", resp.StatusCode)
	}
}

// TestPlanWayIn: the navigation links the planner on every page, and the
// home page's GPU picker asks it for a preset on a hardware.
func TestPlanWayIn(t *testing.T) {
	s := webtest.NewSite(t)
	s.Seed(t)
	_, page := s.Get(t, "/")
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
	if doc.Find(`header nav a[href="/plan"]`).Length() != 1 {
		t.Error("the navigation has no link to /plan")
	}
	form := doc.Find(`section.gpu-picker form[action="/plan"]`)
	if form.Find(`select[name=hardware] option[value="rtx-3060-12gb"]`).Length() != 1 ||
		form.Find(`select[name=preset] option[value=team]`).Length() != 1 {
		t.Error("the home page's GPU picker does not offer the seed hardware and the presets")
	}
}

// TestPlanCachedPerAddress: a preset's page is kept, one page per
// address (another preset is another page; the same parameters in another
// order the same), and a question of numbers anyone may write is
// answered fresh, not kept.
func TestPlanCachedPerAddress(t *testing.T) {
	s, m := webtest.NewCountedSite(t)
	s.Seed(t)
	base := "/plan"
	_, team := s.Get(t, base+"?hardware=rtx-3060-12gb&preset=team")
	hits, misses, entries := webtest.CacheCounts(t, m)
	_, again := s.Get(t, base+"?preset=team&hardware=rtx-3060-12gb")
	if h, mi, e := webtest.CacheCounts(t, m); h != hits+1 || mi != misses || e != entries || again != team {
		t.Errorf("%s the team preset again: hits %d→%d, misses %d→%d, entries %d→%d, want a hit of its entry", base, hits, h, misses, mi, entries, e)
	}
	_, chat := s.Get(t, base+"?hardware=rtx-3060-12gb&preset=chat")
	if h, mi, e := webtest.CacheCounts(t, m); h != hits+1 || mi != misses+1 || e != entries+1 || chat == team {
		t.Errorf("%s the chat preset: hits %d→%d, misses %d→%d, entries %d→%d, want a page of its own", base, hits, h, misses, mi, entries, e)
	}
	custom := base + "?hardware=rtx-3060-12gb&context=12345&min_user_tps=17.5"
	for range 2 {
		_, _, entries := webtest.CacheCounts(t, m)
		resp, _ := s.Get(t, custom)
		if _, _, e := webtest.CacheCounts(t, m); resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-store" || e != entries {
			t.Errorf("%s: %d, Cache-Control %q, entries %d→%d, want 200, no-store, not kept", custom, resp.StatusCode, resp.Header.Get("Cache-Control"), entries, e)
		}
	}
}
