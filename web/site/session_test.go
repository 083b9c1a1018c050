package site_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/web/site"
)

const testPassword = "correct horse battery staple"

// TestSignUpSignIn: an account is made and signed in, its cookie is
// HttpOnly and SameSite=Lax, signing out ends it, and a failed sign-in says
// the same for a wrong password as for an unknown address.
func TestSignUpSignIn(t *testing.T) {
	s := newSite(t)
	v := newVisitor(t, s)
	resp, _ := v.post("/signup", url.Values{"handle": {"Alice"}, "email": {"alice@example.com"}, "password": {testPassword}})
	cookie := resp.Header.Get("Set-Cookie")
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || strings.Contains(cookie, "Secure") {
		t.Errorf("session cookie %q: want HttpOnly, SameSite=Lax, not Secure over http", cookie)
	}
	if resp, body := v.get("/account?lang=en"); resp.StatusCode != 200 || !strings.Contains(body, `id="account-handle">Alice`) {
		t.Errorf("/account = %d, does not name Alice", resp.StatusCode)
	}
	if resp, _ := v.post("/logout", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-out = %d", resp.StatusCode)
	}
	if resp, _ := v.get("/account"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next=%2Faccount" {
		t.Errorf("/account signed out = %d %s, want 303 to sign in", resp.StatusCode, resp.Header.Get("Location"))
	}
	// The same words for both failures: they must not tell who has an account.
	_, wrong := v.post("/login?lang=en", url.Values{"email": {"alice@example.com"}, "password": {"not the password"}})
	_, nobody := v.post("/login?lang=en", url.Values{"email": {"bob@example.com"}, "password": {"not the password"}})
	msg := "That e-mail address and password do not match an account."
	if !strings.Contains(wrong, msg) || !strings.Contains(nobody, msg) {
		t.Errorf("failed sign-ins do not both say %q", msg)
	}
	if resp := v.login("ALICE@example.com", testPassword, "/account/tokens"); resp.StatusCode != http.StatusSeeOther ||
		resp.Header.Get("Location") != "/account/tokens" {
		t.Errorf("sign-in = %d %s, want 303 back to /account/tokens", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Another site as "next" is never followed.
	if resp := v.login("alice@example.com", testPassword, "//evil.example/"); resp.Header.Get("Location") != "/account" {
		t.Errorf("sign-in with an outside next went to %s", resp.Header.Get("Location"))
	}
	// Handles are one name whatever their case.
	other := newVisitor(t, s)
	resp, body := other.post("/signup?lang=en", url.Values{"handle": {"alice"}, "email": {"a2@example.com"}, "password": {testPassword}})
	if resp.StatusCode != 422 || !strings.Contains(body, "already in use") {
		t.Errorf("sign-up as alice after Alice = %d, want 422 taken", resp.StatusCode)
	}
}

// TestSecureCookie: over https the session cookie is Secure.
func TestSecureCookie(t *testing.T) {
	s := newConfigSite(t, func(c *site.Config) { c.BaseURL = "https://speedmatrix.example" })
	resp, _ := newVisitor(t, s).post("/signup", url.Values{"handle": {"sec"}, "email": {"s@example.com"}, "password": {testPassword}})
	if c := resp.Header.Get("Set-Cookie"); !strings.Contains(c, "Secure") || !strings.Contains(c, "HttpOnly") {
		t.Errorf("session cookie over https = %q, want Secure", c)
	}
}

// TestSessionFixation: a session id the browser had before signing in,
// planted or its own, is worthless afterwards; sign out everywhere ends
// every session.
func TestSessionFixation(t *testing.T) {
	s := newSite(t)
	v := newVisitor(t, s)
	v.signup("fixed", "fixed@example.com", testPassword)
	before := v.session()
	u, _ := url.Parse(s.URL)
	if resp := v.login("fixed@example.com", testPassword, "/account"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in = %d", resp.StatusCode)
	}
	after := v.session()
	if after == "" || after == before {
		t.Fatalf("the session cookie did not change at sign-in")
	}
	// The earlier id no longer signs anyone in.
	attacker := newVisitor(t, s)
	attacker.jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: before, Path: "/"}})
	if resp, _ := attacker.get("/account"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the pre-sign-in session still works (%d)", resp.StatusCode)
	}
	// A planted value is replaced at sign-in.
	planted := newVisitor(t, s)
	planted.jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "planted-by-attacker", Path: "/"}})
	planted.login("fixed@example.com", testPassword, "/account")
	if got := planted.session(); got == "planted-by-attacker" || got == "" {
		t.Errorf("session after sign-in with a planted cookie = %q", got)
	}
	// Sign out everywhere: both browsers are signed out.
	if resp, _ := v.post("/account/sessions/revoke", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign out everywhere = %d", resp.StatusCode)
	}
	if resp, _ := planted.get("/account"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("another browser is still signed in after sign out everywhere (%d)", resp.StatusCode)
	}
}

// TestLoginRateLimit: ten failed passwords, then 429 with Retry-After,
// even for the right password.
func TestLoginRateLimit(t *testing.T) {
	s := newSite(t)
	newVisitor(t, s).signup("guessed", "guessed@example.com", testPassword)
	v := newVisitor(t, s)
	for i := range 10 {
		if resp := v.login("guessed@example.com", "wrong password "+strconv.Itoa(i), "/account"); resp.StatusCode != 401 {
			t.Fatalf("failure %d = %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp := v.login("guessed@example.com", testPassword, "/account")
	wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || wait <= 0 || wait > 15*60 {
		t.Errorf("11th attempt = %d, Retry-After %q; want 429 with a wait of up to 15 minutes", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if v.session() != "" {
		t.Error("a rate-limited sign-in set a session")
	}
}

// TestCrossOriginForms: every state-changing browser address (every POST
// outside the API) refuses a request from another site, and the same form
// from the site itself goes through.
func TestCrossOriginForms(t *testing.T) {
	s := newSite(t)
	v := newVisitor(t, s)
	v.signup("victim", "victim@example.com", testPassword)
	posts := postRoutes(t, s)
	for _, want := range []string{"/signup", "/login", "/logout", "/account/tokens", "/account/tokens/revoke",
		"/account/sessions/revoke", "/account/reset", "/upload"} {
		if !posts[want] {
			t.Errorf("POST %s is not in the route table", want)
		}
	}
	for path := range posts {
		for _, h := range [][]string{{"Sec-Fetch-Site: cross-site"}, {"Sec-Fetch-Site: ", "Origin: https://evil.example"}} {
			resp, _ := v.post(path, url.Values{"email": {"victim@example.com"}, "password": {testPassword}}, h...)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("POST %s from another site (%v) = %d, want 403", path, h, resp.StatusCode)
			}
		}
	}
	if v.session() == "" {
		t.Error("a cross-site post signed the victim out")
	}
	if resp, _ := v.post("/account/tokens", url.Values{}); resp.StatusCode != 200 {
		t.Errorf("the same form from the site itself = %d, want 200", resp.StatusCode)
	}
}

// TestResetLink: the operator's one-time link sets a new password once,
// signs out the old sessions, and cannot be used again.
func TestResetLink(t *testing.T) {
	s := newSite(t)
	old := newVisitor(t, s)
	old.signup("forgetful", "f@example.com", testPassword)
	secret, _ := accounts.NewSecret()
	if err := s.store.CreateReset(context.Background(), "FORGETFUL", accounts.Hash(secret), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	v := newVisitor(t, s)
	link := "/account/reset?token=" + url.QueryEscape(secret)
	if resp, _ := v.get(link); resp.StatusCode != 200 || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("reset link = %d (Referrer-Policy %q)", resp.StatusCode, resp.Header.Get("Referrer-Policy"))
	}
	if resp, _ := v.post("/account/reset", url.Values{"token": {secret}, "password": {"short"}}); resp.StatusCode != 422 {
		t.Errorf("a short new password = %d, want 422", resp.StatusCode)
	}
	if resp, _ := v.post("/account/reset", url.Values{"token": {secret}, "password": {"a brand new passphrase"}}); resp.StatusCode != 303 || v.session() == "" {
		t.Fatalf("reset = %d, want 303 signed in", resp.StatusCode)
	}
	if resp, _ := old.get("/account"); resp.StatusCode != http.StatusSeeOther {
		t.Error("the session from before the reset still works")
	}
	if resp, _ := newVisitor(t, s).get(link); resp.StatusCode != 404 {
		t.Errorf("the used link = %d, want 404", resp.StatusCode)
	}
	if resp := newVisitor(t, s).login("f@example.com", testPassword, "/"); resp.StatusCode != 401 {
		t.Errorf("the old password = %d, want 401", resp.StatusCode)
	}
	if resp := newVisitor(t, s).login("f@example.com", "a brand new passphrase", "/"); resp.StatusCode != 303 {
		t.Errorf("the new password = %d, want 303", resp.StatusCode)
	}
}

// TestRetiredHandle: a deleted account's handle stays unusable.
func TestRetiredHandle(t *testing.T) {
	s := newSite(t)
	newVisitor(t, s).signup("gone", "gone@example.com", testPassword)
	a, err := s.store.AccountByHandle(context.Background(), "gone")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.store.DeleteAccount(context.Background(), a.ID); err != nil {
		t.Fatal(err)
	}
	resp, body := newVisitor(t, s).post("/signup?lang=en", url.Values{"handle": {"Gone"}, "email": {"new@example.com"}, "password": {testPassword}})
	if resp.StatusCode != 422 || !strings.Contains(body, "deleted recently") {
		t.Errorf("sign-up with a retired handle = %d, want 422 naming the reason", resp.StatusCode)
	}
}
