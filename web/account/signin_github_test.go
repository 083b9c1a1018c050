package account_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// callback is GitHub sending the browser back.
func callback(v *webtest.Visitor, q url.Values) *http.Response {
	resp, _ := v.Get("/login/github/callback?" + q.Encode())
	return resp
}

func newGitHubSite(t *testing.T) (*webtest.Site, *webtest.GitHub) {
	f := webtest.NewGitHub(t)
	s := webtest.NewConfigSite(t, func(c *site.Config) {
		c.GitHub = site.GitHubApp{ClientID: "gh-id", ClientSecret: "gh-secret"}
		site.WithGitHubEndpoints(c, f.URL+"/login/oauth/authorize", f.URL+"/login/oauth/access_token", f.URL+"/api")
	})
	return s, f
}

// TestGitHubSignIn: the whole flow against a fake GitHub. A wrong state
// and GitHub's refusal sign nobody in; the right one makes an account
// named after the login, with a new session; the same GitHub user signs
// in to it again; a taken login asks for a handle.
func TestGitHubSignIn(t *testing.T) {
	s, gh := newGitHubSite(t)
	gh.As(4242, "octo", "octo@example.org")
	v := webtest.NewVisitor(t, s)
	if _, body := v.Get("/login"); !strings.Contains(body, `id="github-login"`) {
		t.Fatal("/login offers no GitHub sign-in")
	}
	u, _ := url.Parse(s.URL)
	v.Jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "planted-by-someone"}})

	state := gh.Start(t, v, "/login/github", url.Values{"next": {"/account/runs"}})
	if resp := callback(v, url.Values{"code": {"good-code"}, "state": {"not-" + state}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("wrong state = %d, want 400", resp.StatusCode)
	}
	state = gh.Start(t, v, "/login/github", nil)
	if resp := callback(v, url.Values{"error": {"access_denied"}, "state": {state}}); resp.StatusCode != http.StatusBadGateway {
		t.Errorf("GitHub's refusal = %d, want 502", resp.StatusCode)
	}
	// A callback without the browser's cookie (another browser) is refused.
	state = gh.Start(t, v, "/login/github", nil)
	if resp := callback(webtest.NewVisitor(t, s), url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("callback in another browser = %d, want 400", resp.StatusCode)
	}
	state = gh.Start(t, v, "/login/github", url.Values{"next": {"/account/runs"}})
	resp := callback(v, url.Values{"code": {"good-code"}, "state": {state}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account/runs" {
		t.Fatalf("callback = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := v.Session(); got == "" || got == "planted-by-someone" {
		t.Errorf("session after sign-in = %q: not rotated", got)
	}
	a, err := s.Store.AccountByHandle(context.Background(), "octo")
	if err != nil || a.Email != "octo@example.org" || !a.EmailVerified || a.PasswordHash != "" {
		t.Fatalf("account = %+v, %v", a, err)
	}
	// Again, from a new browser: the same account, no new one.
	w := webtest.NewVisitor(t, s)
	state = gh.Start(t, w, "/login/github", nil)
	if resp := callback(w, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("second sign-in = %d", resp.StatusCode)
	}
	if _, body := w.Get("/account"); !strings.Contains(body, `id="account-handle">octo `) {
		t.Errorf("signed in as someone else: %.400s", body)
	}
	// The state is spent: replaying the callback is refused.
	if resp := callback(w, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("replayed callback = %d, want 400", resp.StatusCode)
	}
	// Another GitHub user named "OCTO": the handle is taken, so they choose.
	gh.As(777, "OCTO", "")
	x := webtest.NewVisitor(t, s)
	state = gh.Start(t, x, "/login/github", nil)
	if resp := callback(x, url.Values{"code": {"good-code"}, "state": {state}}); resp.Header.Get("Location") != "/login/github/handle" {
		t.Fatalf("taken login = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, body := x.Get("/login/github/handle"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "OCTO") {
		t.Fatalf("handle form = %d", resp.StatusCode)
	}
	if resp, _ := x.Post("/login/github/handle", url.Values{"handle": {"octo"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("choosing the taken handle = %d, want 422", resp.StatusCode)
	}
	if resp, _ := x.Post("/login/github/handle", url.Values{"handle": {"octo2"}}); resp.StatusCode != http.StatusSeeOther || x.Session() == "" {
		t.Fatalf("choosing octo2 = %d", resp.StatusCode)
	}
	if a, err := s.Store.IdentityAccount(context.Background(), store.Identity{Provider: "github", UserID: "777"}); err != nil || a.Handle != "octo2" {
		t.Errorf("identity 777 signs in %+v, %v", a, err)
	}
}

// TestGitHubLinkAndUnlink: a signed-in account links GitHub from
// /account and unlinks it; an account whose only way in is GitHub cannot
// unlink it; a GitHub address that has an account here is never linked by
// itself.
func TestGitHubLinkAndUnlink(t *testing.T) {
	s, gh := newGitHubSite(t)
	v := webtest.NewVisitor(t, s)
	v.Signup("ana", "ana@example.org", "long-password-1")
	if _, body := v.Get("/account"); !strings.Contains(body, `id="github-link"`) {
		t.Fatal("/account offers no link")
	}
	gh.As(999, "ana-on-github", "ana@example.org")
	// Signed out, that GitHub user is refused: the address has an account.
	o := webtest.NewVisitor(t, s)
	state := gh.Start(t, o, "/login/github", nil)
	if resp := callback(o, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusConflict || o.Session() != "" {
		t.Errorf("sign-in by a taken address = %d, want 409 and no session", resp.StatusCode)
	}
	state = gh.Start(t, v, "/account/github/link", nil)
	if resp := callback(v, url.Values{"code": {"good-code"}, "state": {state}}); resp.Header.Get("Location") != "/account" {
		t.Fatalf("link = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, body := v.Get("/account"); !strings.Contains(body, `data-linked="true"`) {
		t.Fatal("GitHub not shown linked")
	}
	// Now GitHub signs ana in.
	state = gh.Start(t, o, "/login/github", nil)
	if resp := callback(o, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in after linking = %d", resp.StatusCode)
	}
	if resp, body := v.Post("/account/github/unlink", nil); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-linked="false"`) {
		t.Errorf("unlink = %d", resp.StatusCode)
	}
	// A GitHub-only account keeps its one way in.
	gh.As(31, "solo", "")
	g := webtest.NewVisitor(t, s)
	state = gh.Start(t, g, "/login/github", nil)
	callback(g, url.Values{"code": {"good-code"}, "state": {state}})
	if resp, body := g.Post("/account/github/unlink", nil); resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-linked="true"`) {
		t.Errorf("unlinking the last way in = %d, want 409", resp.StatusCode)
	}
}
