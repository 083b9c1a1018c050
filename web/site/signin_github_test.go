package site_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
)

// fakeGitHub is an OAuth server and API that signs in whoever user is,
// checking the code, the client secret and the PKCE verifier.
type fakeGitHub struct {
	*httptest.Server
	mu        sync.Mutex
	challenge string // of the last authorize URL the site made
	user      map[string]any
	emails    []map[string]any
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	f := &fakeGitHub{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /login/oauth/access_token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		f.mu.Lock()
		ok := r.PostForm.Get("code") == "good-code" && r.PostForm.Get("client_secret") == "gh-secret" &&
			base64.RawURLEncoding.EncodeToString(sum[:]) == f.challenge
		f.mu.Unlock()
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"bad_verification_code"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"gho_fake","token_type":"bearer","scope":"read:user,user:email"}`))
	})
	api := func(get func() any) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer gho_fake" {
				http.Error(w, "no token", http.StatusUnauthorized)
				return
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			_ = json.NewEncoder(w).Encode(get())
		}
	}
	mux.HandleFunc("GET /api/user", api(func() any { return f.user }))
	mux.HandleFunc("GET /api/user/emails", api(func() any { return f.emails }))
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

// as makes the fake sign in GitHub user id with login and, when email is
// not empty, that verified primary address.
func (f *fakeGitHub) as(id int, login, email string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user = map[string]any{"id": id, "login": login}
	f.emails = []map[string]any{{"email": "other@example.org", "primary": false, "verified": true}}
	if email != "" {
		f.emails = append(f.emails, map[string]any{"email": email, "primary": true, "verified": true})
	}
}

// start posts to a GitHub button and returns the state the site sent to
// the authorize URL, after checking that URL.
func (f *fakeGitHub) start(t *testing.T, v *visitor, path string, form url.Values) string {
	t.Helper()
	resp, body := v.post(path, form)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || loc == nil || !strings.HasPrefix(loc.String(), f.URL+"/login/oauth/authorize?") {
		t.Fatalf("POST %s = %d %s: %.300s", path, resp.StatusCode, resp.Header.Get("Location"), body)
	}
	q := loc.Query()
	if q.Get("client_id") != "gh-id" || q.Get("code_challenge_method") != "S256" || q.Get("redirect_uri") != v.s.URL+"/login/github/callback" || q.Get("state") == "" {
		t.Fatalf("authorize URL = %s", loc)
	}
	f.mu.Lock()
	f.challenge = q.Get("code_challenge")
	f.mu.Unlock()
	return q.Get("state")
}

// callback is GitHub sending the browser back.
func callback(v *visitor, q url.Values) *http.Response {
	resp, _ := v.get("/login/github/callback?" + q.Encode())
	return resp
}

func newGitHubSite(t *testing.T) (*testSite, *fakeGitHub) {
	f := newFakeGitHub(t)
	s := newConfigSite(t, func(c *site.Config) {
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
	gh.as(4242, "octo", "octo@example.org")
	v := newVisitor(t, s)
	if _, body := v.get("/login"); !strings.Contains(body, `id="github-login"`) {
		t.Fatal("/login offers no GitHub sign-in")
	}
	u, _ := url.Parse(s.URL)
	v.jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "planted-by-someone"}})

	state := gh.start(t, v, "/login/github", url.Values{"next": {"/account/runs"}})
	if resp := callback(v, url.Values{"code": {"good-code"}, "state": {"not-" + state}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("wrong state = %d, want 400", resp.StatusCode)
	}
	state = gh.start(t, v, "/login/github", nil)
	if resp := callback(v, url.Values{"error": {"access_denied"}, "state": {state}}); resp.StatusCode != http.StatusBadGateway {
		t.Errorf("GitHub's refusal = %d, want 502", resp.StatusCode)
	}
	// A callback without the browser's cookie (another browser) is refused.
	state = gh.start(t, v, "/login/github", nil)
	if resp := callback(newVisitor(t, s), url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("callback in another browser = %d, want 400", resp.StatusCode)
	}
	state = gh.start(t, v, "/login/github", url.Values{"next": {"/account/runs"}})
	resp := callback(v, url.Values{"code": {"good-code"}, "state": {state}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account/runs" {
		t.Fatalf("callback = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := v.session(); got == "" || got == "planted-by-someone" {
		t.Errorf("session after sign-in = %q: not rotated", got)
	}
	a, err := s.store.AccountByHandle(context.Background(), "octo")
	if err != nil || a.Email != "octo@example.org" || !a.EmailVerified || a.PasswordHash != "" {
		t.Fatalf("account = %+v, %v", a, err)
	}
	// Again, from a new browser: the same account, no new one.
	w := newVisitor(t, s)
	state = gh.start(t, w, "/login/github", nil)
	if resp := callback(w, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("second sign-in = %d", resp.StatusCode)
	}
	if _, body := w.get("/account"); !strings.Contains(body, `id="account-handle">octo `) {
		t.Errorf("signed in as someone else: %.400s", body)
	}
	// The state is spent: replaying the callback is refused.
	if resp := callback(w, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("replayed callback = %d, want 400", resp.StatusCode)
	}
	// Another GitHub user named "OCTO": the handle is taken, so they choose.
	gh.as(777, "OCTO", "")
	x := newVisitor(t, s)
	state = gh.start(t, x, "/login/github", nil)
	if resp := callback(x, url.Values{"code": {"good-code"}, "state": {state}}); resp.Header.Get("Location") != "/login/github/handle" {
		t.Fatalf("taken login = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, body := x.get("/login/github/handle"); resp.StatusCode != http.StatusOK || !strings.Contains(body, "OCTO") {
		t.Fatalf("handle form = %d", resp.StatusCode)
	}
	if resp, _ := x.post("/login/github/handle", url.Values{"handle": {"octo"}}); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("choosing the taken handle = %d, want 422", resp.StatusCode)
	}
	if resp, _ := x.post("/login/github/handle", url.Values{"handle": {"octo2"}}); resp.StatusCode != http.StatusSeeOther || x.session() == "" {
		t.Fatalf("choosing octo2 = %d", resp.StatusCode)
	}
	if a, err := s.store.IdentityAccount(context.Background(), store.Identity{Provider: "github", UserID: "777"}); err != nil || a.Handle != "octo2" {
		t.Errorf("identity 777 signs in %+v, %v", a, err)
	}
}

// TestGitHubLinkAndUnlink: a signed-in account links GitHub from
// /account and unlinks it; an account whose only way in is GitHub cannot
// unlink it; a GitHub address that has an account here is never linked by
// itself.
func TestGitHubLinkAndUnlink(t *testing.T) {
	s, gh := newGitHubSite(t)
	v := newVisitor(t, s)
	v.signup("ana", "ana@example.org", "long-password-1")
	if _, body := v.get("/account"); !strings.Contains(body, `id="github-link"`) {
		t.Fatal("/account offers no link")
	}
	gh.as(999, "ana-on-github", "ana@example.org")
	// Signed out, that GitHub user is refused: the address has an account.
	o := newVisitor(t, s)
	state := gh.start(t, o, "/login/github", nil)
	if resp := callback(o, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusConflict || o.session() != "" {
		t.Errorf("sign-in by a taken address = %d, want 409 and no session", resp.StatusCode)
	}
	state = gh.start(t, v, "/account/github/link", nil)
	if resp := callback(v, url.Values{"code": {"good-code"}, "state": {state}}); resp.Header.Get("Location") != "/account" {
		t.Fatalf("link = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if _, body := v.get("/account"); !strings.Contains(body, `data-linked="true"`) {
		t.Fatal("GitHub not shown linked")
	}
	// Now GitHub signs ana in.
	state = gh.start(t, o, "/login/github", nil)
	if resp := callback(o, url.Values{"code": {"good-code"}, "state": {state}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in after linking = %d", resp.StatusCode)
	}
	if resp, body := v.post("/account/github/unlink", nil); resp.StatusCode != http.StatusOK || !strings.Contains(body, `data-linked="false"`) {
		t.Errorf("unlink = %d", resp.StatusCode)
	}
	// A GitHub-only account keeps its one way in.
	gh.as(31, "solo", "")
	g := newVisitor(t, s)
	state = gh.start(t, g, "/login/github", nil)
	callback(g, url.Values{"code": {"good-code"}, "state": {state}})
	if resp, body := g.post("/account/github/unlink", nil); resp.StatusCode != http.StatusConflict || !strings.Contains(body, `data-linked="true"`) {
		t.Errorf("unlinking the last way in = %d, want 409", resp.StatusCode)
	}
}
