package site_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestUnreadParamsShareThePage: on every cached route, a page asked with
// parameters no page reads is built without them (its links do not carry
// them) and is the same cache entry as the page without them: the second
// request is a hit and the cache holds no more pages.
func TestUnreadParamsShareThePage(t *testing.T) {
	s, m := webtest.NewCountedSite(t)
	id := s.Seed(t)
	webtest.SeedOrg(t, s)
	other := s.SeedLilbench(t)
	run := "/runs/" + id
	byRoute := map[string]string{
		"/": "/", "/runs": "/runs", "/leaderboard": "/leaderboard",
		"/runs/{id}": run, "/runs/{id}.json": run + ".json", "/runs/{id}.csv": run + ".csv", "/runs/{id}.md": run + ".md",
		"/runs/{id}.txt": run + ".txt", "/runs/{id}.bbcode": run + ".bbcode", "/runs/{id}/card.png": run + "/card.png",
		"/runs/{id}/grid.svg": run + "/grid.svg", "/runs/{id}/badge.svg": run + "/badge.svg", "/runs/{id}/embed": run + "/embed",
		"/hardware/{slug}": "/hardware/rtx-3060-12gb", "/engines/{slug}": "/engines/vllm",
		"/models/{slug}": "/models/qwen3-5-4b", "/submitters/{slug}": "/submitters/sandberg",
		"/orgs/{slug}": "/orgs/lil-lab", "/compare": "/compare?runs=" + id + "," + other,
		"/compare/with/{id}": "/compare/with/" + id, "/sitemap.xml": "/sitemap.xml", "/sitemap-{lang}.xml": "/sitemap-ko.xml",
		"/history":          "/history?engine=vllm&hardware=rtx-3060-12gb&model=qwen3-5-4b",
		"/plan":             "/plan?hardware=rtx-3060-12gb&preset=team",
		"/regressions":      "/regressions?engine=vllm",
		"/regressions.atom": "/regressions.atom",
	}
	for _, pattern := range site.CachedRoutePatterns() {
		path, ok := byRoute[pattern]
		if !ok {
			t.Errorf("cached route %s has no page here", pattern)
			continue
		}
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		// First with the junk: the page is built from that request.
		resp, junked := s.Get(t, path+sep+"zzjunk=1&utm_source=x&after=")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		if strings.Contains(junked, "zzjunk") {
			t.Errorf("%s: the page carries a parameter it does not read", path)
		}
		hits, misses, entries := webtest.CacheCounts(t, m)
		_, plain := s.Get(t, path)
		h2, m2, e2 := webtest.CacheCounts(t, m)
		if h2 != hits+1 || m2 != misses || e2 != entries || plain != junked {
			t.Errorf("%s after %s: hits %d→%d, misses %d→%d, entries %d→%d (same body %v), want one hit of the same entry",
				path, sep+"zzjunk=1…", hits, h2, misses, m2, entries, e2, plain == junked)
		}
	}
}

// TestListedParamsMakePages: a parameter the page reads still makes a
// page of its own (a leaderboard filter, a runs sort), in whatever order
// the parameters come; ?after= pages of /runs are not kept, and one on a
// page that does not read it is that page.
func TestListedParamsMakePages(t *testing.T) {
	s, m := webtest.NewCountedSite(t)
	s.Seed(t)
	s.SeedLilbench(t)
	_, board := s.Get(t, "/leaderboard")
	hits, misses, entries := webtest.CacheCounts(t, m)
	_, perRequest := s.Get(t, "/leaderboard?metric=per_request_tps&ctx=0")
	h, mi, e := webtest.CacheCounts(t, m)
	if perRequest == board || h != hits || mi != misses+1 || e != entries+1 {
		t.Errorf("a leaderboard by another metric: hits %d→%d, misses %d→%d, entries %d→%d (same page %v), want a page of its own",
			hits, h, misses, mi, entries, e, perRequest == board)
	}
	_, swapped := s.Get(t, "/leaderboard?ctx=0&x=1&metric=per_request_tps")
	h2, m2, e2 := webtest.CacheCounts(t, m)
	if swapped != perRequest || h2 != h+1 || m2 != mi || e2 != e {
		t.Errorf("the same parameters in another order: hits %d→%d, misses %d→%d, entries %d→%d, want a hit of the same entry", h, h2, mi, m2, e, e2)
	}
	_, newest := s.Get(t, "/runs")
	_, peak := s.Get(t, "/runs?sort=peak")
	if newest == peak {
		t.Error("/runs?sort=peak is the page of /runs")
	}
	h3, m3, e3 := webtest.CacheCounts(t, m)
	s.Get(t, "/runs?after=zzz")
	s.Get(t, "/leaderboard?after=zzz&ctx=0&metric=per_request_tps")
	if h4, m4, e4 := webtest.CacheCounts(t, m); h4 != h3+1 || m4 != m3 || e4 != e3 {
		t.Errorf("?after= on /runs and on the leaderboard: hits %d→%d, misses %d→%d, entries %d→%d, want /runs's answered fresh and the board's a hit",
			h3, h4, m3, m4, e3, e4)
	}
}

// TestMadeUpValuesAreNotKept: a page whose query names nothing stored (a
// filter no run matches, a grid point or setup nobody measured, a revision
// the run never had, a compare list written with spaces) is answered but
// not kept, here or by any other cache: asking for it again is a miss
// again, and the cache holds no more pages than before. Values as many as
// anyone cares to write cannot push out the pages people read.
func TestMadeUpValuesAreNotKept(t *testing.T) {
	s, m := webtest.NewCountedSite(t)
	id := s.Seed(t)
	other := s.SeedLilbench(t)
	s.Get(t, "/")
	s.Get(t, "/") // a miss and a hit: the counters exist
	for _, path := range []string{
		"/runs?model=zz1", "/runs?engine=vllm&submitter=zz1", "/leaderboard?model=zz1",
		"/leaderboard?ctx=123457", "/leaderboard?conc=3&queued=1",
		"/history?engine=vllm&hardware=zz1&model=qwen3-5-4b",
		"/runs/" + id + "/grid.svg?v=99", "/runs/" + id + "/badge.svg?v=99",
		"/compare?runs=" + id + ",%20" + other,
	} {
		hits, _, entries := webtest.CacheCounts(t, m)
		for i := range 2 {
			resp, _ := s.Get(t, path)
			h, _, e := webtest.CacheCounts(t, m)
			if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-store" || e != entries || h != hits {
				t.Errorf("%s (%d): %d, Cache-Control %q, entries %d→%d, hits %d→%d, want 200, no-store, none kept, no hit",
					path, i+1, resp.StatusCode, resp.Header.Get("Cache-Control"), entries, e, hits, h)
			}
		}
	}
	// What is not kept is still compressed for a client that takes gzip.
	resp, body := s.Get(t, "/runs?model=zz1", "Accept-Encoding: gzip")
	if resp.Header.Get("Content-Encoding") != "gzip" || strings.Contains(body, "<html") {
		t.Errorf("/runs?model=zz1 with gzip accepted: Content-Encoding %q, want a gzip body", resp.Header.Get("Content-Encoding"))
	}
	// The pages people read still are kept: a filter that matches, the
	// revision the run has.
	for _, path := range []string{"/runs?engine=vllm", "/leaderboard?engine=vllm", "/runs/" + id + "/grid.svg?v=1",
		"/compare?runs=" + id + "," + other} {
		s.Get(t, path)
		hits, _, _ := webtest.CacheCounts(t, m)
		if resp, _ := s.Get(t, path); resp.Header.Get("Cache-Control") == "no-store" {
			t.Errorf("%s: no-store", path)
		}
		if h, _, _ := webtest.CacheCounts(t, m); h != hits+1 {
			t.Errorf("%s asked again: hits %d→%d, want a hit", path, hits, h)
		}
	}
}

// TestSpellingsShareThePage: one value written another way (an escape of
// a letter, a lower-case escape, a second value after the one the page
// reads) is the page of its one spelling: a hit of the same entry.
func TestSpellingsShareThePage(t *testing.T) {
	s, m := webtest.NewCountedSite(t)
	id := s.Seed(t)
	other := s.SeedLilbench(t)
	for plain, others := range map[string][]string{
		"/leaderboard?engine=vllm":          {"/leaderboard?engine=%76llm", "/leaderboard?engine=vll%6d&engine=zz1"},
		"/runs?engine=vllm":                 {"/runs?engine=%76%6C%6C%6D", "/runs?engine=vllm&engine=zz2"},
		"/compare?runs=" + id + "," + other: {"/compare?runs=" + id + "%2C" + other, "/compare?runs=" + id + "%2c" + other},
	} {
		_, want := s.Get(t, plain)
		for _, path := range others {
			hits, misses, entries := webtest.CacheCounts(t, m)
			_, got := s.Get(t, path)
			if h, mi, e := webtest.CacheCounts(t, m); h != hits+1 || mi != misses || e != entries || got != want {
				t.Errorf("%s after %s: hits %d→%d, misses %d→%d, entries %d→%d (same page %v), want a hit of its entry",
					path, plain, hits, h, misses, mi, entries, e, got == want)
			}
		}
	}
	// Numbers and toggles are read in one spelling; another is refused.
	for _, path := range []string{"/leaderboard?ctx=00", "/leaderboard?conc=+1", "/leaderboard?flagged=yes", "/leaderboard?queued=0",
		"/history?engine=vllm&hardware=rtx-3060-12gb&model=qwen3-5-4b&cell=0x01"} {
		resp, body := s.Get(t, path)
		name, _, _ := strings.Cut(path[strings.LastIndexByte(path, '&')+1:], "=")
		name = name[strings.IndexByte(name, '?')+1:]
		if resp.StatusCode != 400 || !strings.Contains(body, "“"+name+"”") {
			t.Errorf("%s: %d, want 400 naming “%s”", path, resp.StatusCode, name)
		}
	}
}
