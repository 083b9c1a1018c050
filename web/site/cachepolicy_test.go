package site

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// TestCachedRoutesExist: every pattern the cache policy names is a GET
// route of the site, so a renamed route cannot silently stop being cached.
func TestCachedRoutesExist(t *testing.T) {
	s := &Server{Server: kit.New(kit.Config{}), metrics: NewMetrics()}
	routes := map[string]bool{}
	err := chi.Walk(s.routes(), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method == http.MethodGet {
			routes[route] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for pattern := range cachedRoutes {
		if !routes[pattern] {
			t.Errorf("cachedRoutes names %s, which is no GET route", pattern)
		}
	}
}

// TestQueryValue: queryValue reads what r.URL.Query().Get reads, with or
// without parsing the query.
func TestQueryValue(t *testing.T) {
	for _, q := range []string{"", "lang=de", "x=1&lang=de&lang=fr", "lang&lang=de", "lang=", "langx=1",
		"xlang=1", "a=1&&lang=ja", "lang=de;x=1&lang=fr", "lang=pt%2DBR", "l%61ng=ko", "lang=a+b", "after=abc&lang=es",
		"=lang", "lang=x=y"} {
		r := httptest.NewRequest("GET", "/runs?"+q, nil)
		for _, key := range []string{"lang", "after"} {
			if got, want := queryValue(r, key), r.URL.Query().Get(key); got != want {
				t.Errorf("queryValue(%q, %s) = %q, want %q", q, key, got, want)
			}
		}
	}
}
