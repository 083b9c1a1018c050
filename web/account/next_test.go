package account_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// openRedirects are return addresses that leave the site in a browser;
// the router must answer each with the fixed default.
var openRedirects = []string{
	"/\t/evil.com", "/%09/evil.com", "//evil.com", "///evil.com", `/\evil.com`, "/%2F/evil.com",
	"/%5C/evil.com", "/.//evil.com", "https://evil.com", "javascript:alert(1)", "/\uff0fevil.com",
	"/%EF%BC%8Fevil.com", " /account", "/\r\n/evil.com",
}

// TestLoginNextStaysOnSite: signed in, GET /login?next=/%09/evil.com and
// a sign-in posting that next answer 303 to /account, never to
// `/\t/evil.com` (which a browser reads as //evil.com); a plain path with
// an encoded slash in its query is followed as it is.
func TestLoginNextStaysOnSite(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	v.Signup("ana", "ana@example.org", webtest.Password)
	resp, _ := v.Get("/login?next=/%09/evil.com")
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/account" {
		t.Errorf("signed-in GET /login?next=/%%09/evil.com = %d %q, want 303 /account", resp.StatusCode, loc)
	}
	for _, next := range openRedirects {
		resp, _ := v.Get("/login?" + url.Values{"next": {next}}.Encode())
		if loc := resp.Header.Get("Location"); loc != "/account" {
			t.Errorf("signed-in GET /login with next %q = %d %q, want /account", next, resp.StatusCode, loc)
		}
	}
	for _, next := range []string{"/\t/evil.com", "/%2F/evil.com"} {
		if resp := webtest.NewVisitor(t, s).Login("ana@example.org", webtest.Password, next); resp.Header.Get("Location") != "/account" {
			t.Errorf("POST /login with next %q = %d %q, want /account", next, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	const search = "/search?q=Qwen%2FQwen3-8B"
	if resp, _ := v.Get("/login?" + url.Values{"next": {search}}.Encode()); resp.Header.Get("Location") != search {
		t.Errorf("signed-in GET /login with next %q = %q, want it followed", search, resp.Header.Get("Location"))
	}
	// Signed out, the form carries only the checked value on to the POST.
	_, body := webtest.NewVisitor(t, s).Get("/login?next=/%09/evil.com")
	if !strings.Contains(body, `name="next" value="/account"`) || strings.Contains(body, `value="/`+"\t") {
		t.Errorf("the sign-in form carries another next than /account")
	}
}

// TestGitHubNextStaysOnSite: the next kept through GitHub's round trip
// is checked when kept and again when followed, so a cookie carrying
// `/\t/evil.com` (an older build's, or one the browser made) lands on
// /account too.
func TestGitHubNextStaysOnSite(t *testing.T) {
	s, gh := newGitHubSite(t)
	gh.As(4242, "octo", "octo@example.org")
	v := webtest.NewVisitor(t, s)
	state := gh.Start(t, v, "/login/github", url.Values{"next": {"/\t/evil.com"}})
	resp := callback(v, url.Values{"state": {state}, "code": {"good-code"}})
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/account" {
		t.Errorf("GitHub sign-in with next /\\t/evil.com = %d %q, want 303 /account", resp.StatusCode, loc)
	}
	for _, next := range openRedirects {
		w := webtest.NewVisitor(t, s)
		gh.Start(t, w, "/login/github", url.Values{})
		flow, _ := json.Marshal(map[string]string{"State": "forged-state", "Verifier": "forged-verifier", "Mode": "login", "Next": next})
		gh.SetChallenge(s256("forged-verifier"))
		u, _ := url.Parse(s.URL)
		w.Jar.SetCookies(u, []*http.Cookie{{Name: "oauth", Value: base64.RawURLEncoding.EncodeToString(flow), Path: "/"}})
		resp := callback(w, url.Values{"state": {"forged-state"}, "code": {"good-code"}})
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != "/account" {
			t.Errorf("GitHub callback with next %q in the cookie = %d %q, want 303 /account", next, resp.StatusCode, loc)
		}
	}
}

// s256 is the PKCE challenge of verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
