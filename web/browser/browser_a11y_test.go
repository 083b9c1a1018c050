package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// axeScript is axe-core as npm installs it from web/browser/testdata/axe
// (package-lock.json pins the version; make deps runs npm ci).
const axeScript = "testdata/axe/node_modules/axe-core/axe.min.js"

// a11yLife bounds the whole audit: every page in every language at two
// widths and in two schemes (85 s to 3 min on the 2-core machine under a
// load of 7 to 12; the bound leaves room for a busier CI).
const a11yLife = 10 * time.Minute

// a11yPage is one address of the route table as a reader opens it.
type a11yPage struct {
	path   string
	status int
}

// notPages are the GET routes that answer something other than an HTML
// page (files, images, feeds, health checks); every other GET route must be
// in the audit's page list, so a new page cannot skip the audit.
var notPages = map[string]bool{
	"/healthz": true, "/readyz": true, "/static/*": true, "/favicon.ico": true,
	"/runs/{id}.json": true, "/runs/{id}.csv": true, "/runs/{id}.md": true, "/runs/{id}.txt": true,
	"/runs/{id}.bbcode": true, "/runs/{id}/source": true, "/runs/{id}/card.png": true,
	"/runs/{id}/grid.svg": true, "/runs/{id}/badge.svg": true,
	"/sitemap.xml": true, "/sitemap-{lang}.xml": true, "/robots.txt": true,
	"/regressions.atom": true, // a feed for readers, not a page
	// Behind the browser's cookie: TestAccessibilityUpload reaches it by
	// uploading, in every language.
	"/upload/drafts/{id}": true,
	"/bench/token":        true, // a redirect to /account/tokens
	// GitHub's way back: a redirect, or a refusal without GitHub's state.
	"/login/github/callback": true,
}

// signedInPages are the page routes that need a signed-in browser (or a
// reset link): TestBrowserAccount and TestBrowserOrg audit them, signed in.
var signedInPages = map[string]bool{"/account": true, "/account/tokens": true, "/account/reset": true, "/account/runs": true,
	"/account/runs/{id}/edit": true, "/admin/audit": true, "/account/orgs": true, "/account/orgs/{slug}": true,
	// Mailed links and a GitHub sign-up waiting for its handle:
	// TestAccessibilitySignIn reaches them with mail and GitHub on.
	"/signup/confirm": true, "/account/email/verify": true, "/login/github/handle": true}

// TestAccessibility opens every page of the route table in every language,
// light and dark, at 1280 and 360 px, and fails on any axe-core violation,
// on a page wider than a 360 px phone, on a console error and on a failed
// request (a missing favicon among them).
func TestAccessibility(t *testing.T) {
	axe := readAxe(t)
	browser := newBrowserFor(t, a11yLife)
	s := webtest.NewSite(t)
	pages := a11yPages(t, s)
	// Two tabs, one per core, take the pages in turn.
	tabs := make(chan watchedTab, a11yTabs)
	for range a11yTabs {
		tab, watch := newWatchedTab(t, browser)
		tabs <- watchedTab{tab, watch}
	}
	start := time.Now()
	var audited atomic.Int64
	langs := a11yLanguages()
	t.Run("pages", func(t *testing.T) {
		for _, lang := range langs {
			for _, p := range pages {
				t.Run(lang.Tag+p.path, func(t *testing.T) {
					t.Parallel()
					tab := <-tabs
					defer func() { tabs <- tab }()
					audited.Add(int64(auditPage(t, tab.ctx, tab.watch, axe, s.URL, withLang(p.path, lang.Tag), p.status)))
				})
			}
		}
	})
	t.Logf("%d axe runs on %d pages × %d languages in %v", audited.Load(), len(pages), len(langs),
		time.Since(start).Round(time.Millisecond))
}

// a11yLanguages are the languages every page is audited in: all eight,
// since each sets its own words, widths and line breaks. A11Y_LANGUAGES
// (e.g. "en,de") narrows the audit while working on a page
// (docs/accessibility.md); make test audits them all.
func a11yLanguages() []i18n.Language {
	only := os.Getenv("A11Y_LANGUAGES")
	if only == "" {
		return i18n.Languages
	}
	var out []i18n.Language
	for _, l := range i18n.Languages {
		if slices.Contains(strings.Split(only, ","), l.Tag) {
			out = append(out, l)
		}
	}
	return out
}

// a11yTabs is how many pages are audited at once.
const a11yTabs = 2

// watchedTab is a tab and the watch on its events.
type watchedTab struct {
	ctx   context.Context
	watch *pageWatch
}

// readAxe reads axe-core's script. Without it the test fails under CI and
// is skipped elsewhere, naming the command that installs it.
func readAxe(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(axeScript)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("axe-core is not installed (%v): run make deps-axe (npm ci in web/browser/testdata/axe)", err)
		}
		t.Skipf("axe-core is not installed (%v): run make deps-axe (npm ci in web/browser/testdata/axe)", err)
	}
	return string(b)
}

// a11yPages seeds runs with a verified submitter, an organisation and a
// second run to compare, and returns one address for every page route of
// the router, plus the not-found page. It fails when a GET route is
// neither in the list nor among notPages.
func a11yPages(t *testing.T, s *webtest.Site) []a11yPage {
	t.Helper()
	id := s.Seed(t)
	webtest.SeedOrg(t, s)
	other := s.SeedLilbench(t)
	byRoute := map[string]string{
		"/": "/", "/runs": "/runs", "/leaderboard": "/leaderboard", "/search": "/search?q=qwen",
		"/runs/{id}": "/runs/" + id, "/runs/{id}/embed": "/runs/" + id + "/embed",
		"/hardware/{slug}": "/hardware/rtx-3060-12gb", "/engines/{slug}": "/engines/vllm",
		"/models/{slug}": "/models/qwen3-5-4b", "/submitters/{slug}": "/submitters/sandberg",
		"/orgs/{slug}": "/orgs/lil-lab", "/compare": "/compare?runs=" + id + "," + other,
		"/compare/with/{id}": "/compare/with/" + id, "/upload": "/upload",
		"/docs/formats": "/docs/formats", "/docs/api": "/docs/api",
		"/calculator":      "/calculator?gpu=rtx-3060-12gb&kv=int4&model=Qwen%2FQwen3.5-4B&weights=fp8",
		"/docs/calculator": "/docs/calculator",
		"/history":         "/history?model=qwen3-5-4b&hardware=rtx-3060-12gb&engine=vllm",
		"/signup":          "/signup", "/login": "/login", "/login/forgot": "/login/forgot", "/start": "/start", "/bench": "/bench",
		"/plan":        "/plan?hardware=rtx-3060-12gb&preset=team",
		"/regressions": "/regressions",
	}
	// Views of a route that show more than its plain address: the bare
	// planner form, the grid under an energy metric with a price, and the
	// leaderboard ranked by tokens per joule (the lil-bench run has power).
	extra := []string{"/plan", "/runs/" + other + "?metric=tokens_per_joule&kwh=0.25",
		"/runs/" + other + "?metric=cost_per_mtok", "/leaderboard?metric=tokens_per_joule"}
	var missing []string
	err := chi.Walk(s.Config.Handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method != http.MethodGet || notPages[route] || signedInPages[route] || strings.HasPrefix(route, "/api/") || byRoute[route] != "" {
			return nil
		}
		missing = append(missing, route)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Fatalf("GET routes neither audited nor listed in notPages: %v", missing)
	}
	pages := []a11yPage{{path: "/no/such/page", status: http.StatusNotFound}}
	for _, p := range byRoute {
		pages = append(pages, a11yPage{path: p, status: http.StatusOK})
	}
	for _, p := range extra {
		pages = append(pages, a11yPage{path: p, status: http.StatusOK})
	}
	sort.Slice(pages, func(i, j int) bool { return pages[i].path < pages[j].path })
	return pages
}

// withLang adds ?lang= to a path that may have a query already.
func withLang(path, lang string) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return fmt.Sprintf("%s%slang=%s", path, sep, lang)
}
