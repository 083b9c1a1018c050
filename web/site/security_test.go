package site_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// inlineCode finds what a policy without 'unsafe-inline' refuses: a
// <script> without src, a <style> block, a style="" or on…="" attribute.
var inlineCode = regexp.MustCompile(`(?i)<script(\s[^>]*)?>\s*[^<\s]|<style[\s>]|<[a-z][^<>]*\s(style|on[a-z]+)=`)

// TestSecurityHeadersEveryRoute walks the route table and asks every
// address (parameters filled with the seed run's id and slugs) for its
// answer: each carries the policy without 'unsafe-inline', nosniff, a
// referrer policy and no framing, except the embed page, which any site
// may frame; no HTML answer holds inline script or style.
func TestSecurityHeadersEveryRoute(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	_, report := s.Get(t, "/runs/"+id)
	slugs := map[string]string{}
	for _, kind := range []string{"hardware", "engines", "models", "submitters", "orgs"} {
		slugs[kind] = "no-such-" + kind
		if m := regexp.MustCompile(`href="/` + kind + `/([^"?#]+)`).FindStringSubmatch(report); m != nil {
			slugs[kind] = m[1]
		}
	}
	routes := s.Config.Handler.(chi.Routes)
	n := 0
	err := chi.Walk(routes, func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		path := fillRoute(route, id, slugs)
		n++
		checkSecurityHeaders(t, s, method, path, strings.HasSuffix(route, "/embed"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 30 {
		t.Fatalf("walked %d routes; the table has more", n)
	}
	checkSecurityHeaders(t, s, "GET", "/no/such/page", false)
}

// fillRoute turns a route pattern into an address that reaches its handler.
func fillRoute(route, id string, slugs map[string]string) string {
	route = strings.TrimSuffix(route, "/")
	route = strings.ReplaceAll(route, "{id}", id)
	route = strings.ReplaceAll(route, "/*", "/css/site.css")
	if i := strings.Index(route, "{slug}"); i > 0 {
		kind := strings.Trim(route[:i], "/")
		route = strings.ReplaceAll(route, "{slug}", slugs[kind])
	}
	if route == "" {
		return "/"
	}
	return route
}

func checkSecurityHeaders(t *testing.T, s *webtest.Site, method, path string, embed bool) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, nil)
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	h := resp.Header
	csp := h.Get("Content-Security-Policy")
	where := method + " " + path
	if csp == "" || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") ||
		!strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "style-src 'self'") ||
		!strings.Contains(csp, "object-src 'none'") {
		t.Errorf("%s (%d): Content-Security-Policy %q", where, resp.StatusCode, csp)
	}
	if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
		t.Errorf("%s: nosniff %q, Referrer-Policy %q", where, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
	}
	if h.Get("Strict-Transport-Security") != "" {
		t.Errorf("%s: HSTS over plain http without an https BASE_URL", where)
	}
	switch {
	case embed && (!strings.Contains(csp, "frame-ancestors *") || h.Get("X-Frame-Options") != ""):
		t.Errorf("%s: the embed page must be frameable: %q, X-Frame-Options %q", where, csp, h.Get("X-Frame-Options"))
	case !embed && (!strings.Contains(csp, "frame-ancestors 'none'") || h.Get("X-Frame-Options") != "DENY"):
		t.Errorf("%s: framing not refused: %q, X-Frame-Options %q", where, csp, h.Get("X-Frame-Options"))
	}
	if strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		if loc := inlineCode.FindIndex(body); loc != nil {
			t.Errorf("%s: inline code a strict policy refuses: %q", where, body[max(loc[0]-80, 0):min(loc[1]+80, len(body))])
		}
	}
}

// TestHSTSWithHTTPSBaseURL: a site whose public origin is https tells
// browsers to keep to it; one on http does not (TestSecurityHeadersEveryRoute).
func TestHSTSWithHTTPSBaseURL(t *testing.T) {
	st, _ := dbtest.New(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, BaseURL: "https://speedmatrix.example",
		Logger: slog.New(slog.DiscardHandler)}))
	defer srv.Close()
	for _, path := range []string{"/", "/healthz", "/static/css/site.css", "/api/v1/runs", "/nope"} {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(got, "max-age=") {
			t.Errorf("%s: Strict-Transport-Security %q", path, got)
		}
	}
}
