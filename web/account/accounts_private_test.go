package account_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestAccountPagesNotIndexed: the pages of signing in and of an account
// ask search engines to leave them out (meta robots and robots.txt), while
// the public explanations beside them stay indexable.
func TestAccountPagesNotIndexed(t *testing.T) {
	s := webtest.NewSite(t)
	const noindex = `<meta name="robots" content="noindex, nofollow">`
	for _, path := range []string{"/signup", "/login"} {
		if resp, page := s.Get(t, path); resp.StatusCode != 200 || !strings.Contains(page, noindex) {
			t.Errorf("%s = %d, without the noindex tag", path, resp.StatusCode)
		}
	}
	for _, path := range []string{"/start", "/bench"} {
		if _, page := s.Get(t, path); strings.Contains(page, noindex) {
			t.Errorf("%s is marked noindex", path)
		}
	}
	_, robots := s.Get(t, "/robots.txt")
	for _, line := range []string{"Disallow: /account", "Disallow: /signup", "Disallow: /login", "Disallow: /admin/"} {
		if !strings.Contains(robots, line+"\n") {
			t.Errorf("robots.txt lacks %q", line)
		}
	}
	if strings.Contains(robots, "Disallow: /bench\n") || strings.Contains(robots, "Disallow: /start") {
		t.Error("robots.txt keeps crawlers from the getting-started pages")
	}
}
