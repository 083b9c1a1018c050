package site

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestPageQuery: a query keeps the listed parameters only, in the list's
// order, each once (its first value), every value written one way, ?lang=
// as the tag it names; a query in that form already is kept as it is,
// without a copy.
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
		"%6Cang=de":                         "",                   // an escaped name is none of the list's
		"model=b&hardware=h&model=a":        "hardware=h&model=b", // Query().Get reads the first
		"model=x&model=zz1":                 "model=x",
		"engine=%76llm":                     "engine=vllm",
		"engine=vll%6d&model=a%2db":         "engine=vllm&model=a-b",
		"model=a%2cb":                       "model=a,b",
		"model=a%2Cb&sort=peak":             "model=a,b&sort=peak",
		"model=a%20b":                       "model=a+b",
		"model=a+b":                         "model=a+b",
		"model=a%2Bb":                       "model=a%2Bb",
		"model=a%2bb":                       "model=a%2Bb",
		"model=%zz&sort=peak":               "sort=peak", // no valid escape: dropped, as url.ParseQuery drops it
		"model=%C3%a9":                      "model=%C3%A9",
		"model=a/b":                         "model=a%2Fb",
		"sort=peak&x=1&after=c1":            "after=c1&sort=peak",
		"model=a&&hardware=b&":              "hardware=b&model=a",
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
	for _, raw := range []string{"lang=de", "engine=vllm&hardware=rtx&lang=pt-BR&model=a+b&sort=peak", "after=x&version=0.1", "submitter=%C3%A9&version=1,2"} {
		if n := testing.AllocsPerRun(100, func() { _ = pageQuery(runsParams, raw) }); n != 0 {
			t.Errorf("pageQuery(%q) allocates %.0f times, want none", raw, n)
		}
	}
}

// TestEscapeValue: every value, written by escapeValue, reads back as
// itself and is in the one form inValueForm accepts, which is what
// url.QueryEscape writes but for ',' (bare in compare's runs); and a value
// in that form is the only spelling of itself.
func TestEscapeValue(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	for _, v := range []string{"", "vllm", "a b", "a+b", "a,b", "é", "100%", "a&b=c", "~._-", string(all)} {
		e := escapeValue(v)
		if back, err := url.QueryUnescape(e); err != nil || back != v {
			t.Errorf("escapeValue(%q) = %q, which reads back as %q (%v)", v, e, back, err)
		}
		if !inValueForm(e) {
			t.Errorf("escapeValue(%q) = %q, not inValueForm", v, e)
		}
		if want := strings.ReplaceAll(url.QueryEscape(v), "%2C", ","); e != want {
			t.Errorf("escapeValue(%q) = %q, want %q", v, e, want)
		}
	}
	for _, other := range []string{"%76llm", "a%2cb", "a%2Cb", "a%20b", "%7E", "a%2bb", "%", "%4", "%GG", "a/b", "a b", "é"} {
		if inValueForm(other) {
			t.Errorf("inValueForm(%q): another spelling taken as the one form", other)
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

// TestPageParamsBeforeHandler: behind the page cache, every cached route's
// handler reads only its listed parameters, in order, whatever order and
// junk the request came with; other routes get their query as it came.
func TestPageParamsBeforeHandler(t *testing.T) {
	var seen string
	s := newTestServer()
	r := chi.NewRouter()
	r.Use(s.cachePages)
	for pattern := range cachedRoutes {
		r.Get(pattern, func(_ http.ResponseWriter, r *http.Request) { seen = r.URL.RawQuery })
	}
	r.Get("/search", func(_ http.ResponseWriter, r *http.Request) { seen = r.URL.RawQuery })
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
