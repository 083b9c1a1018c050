package web

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestPageQuery: a query keeps the listed parameters only, in the list's
// order with repeated values in theirs, ?lang= once as the tag it names;
// a query in that form already is kept as it is, without a copy.
func TestPageQuery(t *testing.T) {
	for raw, want := range map[string]string{
		"":                                  "",
		"x=1":                               "",
		"cold=7&x=2&utm_source=forum":       "",
		"lang=de":                           "lang=de",
		"lang=DE":                           "lang=de",
		"lang=pt":                           "lang=pt-BR",
		"lang=zh%2DCN":                      "lang=zh-Hans",
		"lang=xx":                           "",
		"lang=":                             "",
		"lang":                              "",
		"lang=de&lang=fr":                   "lang=de", // the first chooses, as Query().Get
		"lang=xx&lang=fr":                   "",
		"%6Cang=de":                         "", // an escaped name is none of the list's
		"model=b&hardware=h&model=a":        "hardware=h&model=b&model=a",
		"sort=peak&x=1&after=c1":            "after=c1&sort=peak",
		"model=a&&model=b&":                 "model=a&model=b",
		"model=a;b&engine=vllm":             "engine=vllm",
		"submitter=%C3%A9&lang=ja&fbclid=z": "lang=ja&submitter=%C3%A9",
		"version&model=&sort=newest":        "sort=newest", // a form's empty fields
	} {
		got := pageQuery(runsParams, raw)
		if got != want {
			t.Errorf("pageQuery(%q) = %q, want %q", raw, got, want)
		}
		if again := pageQuery(runsParams, got); again != got {
			t.Errorf("pageQuery(%q) = %q, not in its own form: %q", raw, got, again)
		}
	}
	for _, raw := range []string{"lang=de", "engine=vllm&hardware=rtx&lang=pt-BR&model=a&model=b&sort=peak", "after=x&version=0.1"} {
		if n := testing.AllocsPerRun(100, func() { _ = pageQuery(runsParams, raw) }); n != 0 {
			t.Errorf("pageQuery(%q) allocates %.0f times, want none", raw, n)
		}
	}
}

// TestCachedRoutesListParams: every cached route declares the parameters
// its page reads (a nil list would keep no query at all, not the raw
// one), sorted and each once, ?lang= among them: the language middleware
// reads it on every page.
func TestCachedRoutesListParams(t *testing.T) {
	for pattern, route := range cachedRoutes {
		ps := route.params
		if len(ps) == 0 || !slices.IsSorted(ps) || len(slices.Compact(slices.Clone(ps))) != len(ps) || !slices.Contains(ps, langParam) {
			t.Errorf("%s: parameters %q, want a sorted list without repeats, lang among them", pattern, ps)
		}
		if route.scope == 0 {
			t.Errorf("%s: no scope", pattern)
		}
	}
}

// TestPageParamsBeforeHandler: behind pageParams, every cached route's
// handler reads only its listed parameters, in order, whatever order and
// junk the request came with; other routes get their query as it came.
func TestPageParamsBeforeHandler(t *testing.T) {
	var seen string
	r := chi.NewRouter()
	r.Group(func(r chi.Router) {
		r.Use(pageParams)
		for pattern := range cachedRoutes {
			r.Get(pattern, func(_ http.ResponseWriter, r *http.Request) { seen = r.URL.RawQuery })
		}
		r.Get("/search", func(_ http.ResponseWriter, r *http.Request) { seen = r.URL.RawQuery })
	})
	path := strings.NewReplacer("{id}", "abc", "{slug}", "some-slug", "{lang}", "de")
	for pattern, route := range cachedRoutes {
		var parts, want []string
		for _, p := range route.params {
			v := p + "=1"
			if p == langParam {
				v = "lang=ja"
			}
			want = append(want, v)
			parts = append([]string{v, "zz_" + p + "=2"}, parts...) // reversed, with junk
		}
		seen = "not called"
		r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", path.Replace(pattern)+"?"+strings.Join(parts, "&"), nil))
		if w := strings.Join(want, "&"); seen != w {
			t.Errorf("%s: the handler read %q, want %q", pattern, seen, w)
		}
	}
	r.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/search?q=qwen&x=1", nil))
	if seen != "q=qwen&x=1" {
		t.Errorf("an uncached route's query %q, want it as it came", seen)
	}
}
