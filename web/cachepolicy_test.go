package web

import (
	"net/http"
	"testing"

	"github.com/go-chi/chi/v5"
)

// TestCachedRoutesExist: every pattern the cache policy names is a GET
// route of the site, so a renamed route cannot silently stop being cached.
func TestCachedRoutesExist(t *testing.T) {
	s := &Server{metrics: NewMetrics()}
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
