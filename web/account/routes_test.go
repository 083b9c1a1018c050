package account_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// postRoutes are the router's POST addresses outside the API.
func postRoutes(t testing.TB, s *webtest.Site) map[string]bool {
	t.Helper()
	posts := map[string]bool{}
	err := chi.Walk(s.Config.Handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		// /static/* answers every method with files; it changes nothing.
		if method == http.MethodPost && !strings.HasPrefix(route, "/api/") && route != "/static/*" {
			posts[route] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return posts
}
