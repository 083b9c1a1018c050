package account_test

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
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestSignUpSignIn: an account is made and signed in, its cookie is
// HttpOnly and SameSite=Lax, signing out ends it, and a failed sign-in says
// the same for a wrong password as for an unknown address.
func TestSignUpSignIn(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	resp, _ := v.Post("/signup", url.Values{"handle": {"Alice"}, "email": {"alice@example.com"}, "password": {webtest.Password}})
	cookie := resp.Header.Get("Set-Cookie")
	if !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") || strings.Contains(cookie, "Secure") {
		t.Errorf("session cookie %q: want HttpOnly, SameSite=Lax, not Secure over http", cookie)
	}
	if resp, body := v.Get("/account?lang=en"); resp.StatusCode != 200 || !strings.Contains(body, `id="account-handle">Alice`) {
		t.Errorf("/account = %d, does not name Alice", resp.StatusCode)
	}
	if resp, _ := v.Post("/logout", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-out = %d", resp.StatusCode)
	}
	if resp, _ := v.Get("/account"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/login?next=%2Faccount" {
		t.Errorf("/account signed out = %d %s, want 303 to sign in", resp.StatusCode, resp.Header.Get("Location"))
	}
	// The same words for both failures: they must not tell who has an account.
	_, wrong := v.Post("/login?lang=en", url.Values{"email": {"alice@example.com"}, "password": {"not the password"}})
	_, nobody := v.Post("/login?lang=en", url.Values{"email": {"bob@example.com"}, "password": {"not the password"}})
	msg := "That e-mail address and password do not match an account."
	if !strings.Contains(wrong, msg) || !strings.Contains(nobody, msg) {
		t.Errorf("failed sign-ins do not both say %q", msg)
	}
	if resp := v.Login("ALICE@example.com", webtest.Password, "/account/tokens"); resp.StatusCode != http.StatusSeeOther ||
		resp.Header.Get("Location") != "/account/tokens" {
		t.Errorf("sign-in = %d %s, want 303 back to /account/tokens", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Another site as "next" is never followed.
	if resp := v.Login("alice@example.com", webtest.Password, "//evil.example/"); resp.Header.Get("Location") != "/account" {
		t.Errorf("sign-in with an outside next went to %s", resp.Header.Get("Location"))
	}
	// Handles are one name whatever their case.
	other := webtest.NewVisitor(t, s)
	resp, body := other.Post("/signup?lang=en", url.Values{"handle": {"alice"}, "email": {"a2@example.com"}, "password": {webtest.Password}})
	if resp.StatusCode != 422 || !strings.Contains(body, "already in use") {
		t.Errorf("sign-up as alice after Alice = %d, want 422 taken", resp.StatusCode)
	}
}

// TestSecureCookie: over https the session cookie is Secure.
func TestSecureCookie(t *testing.T) {
	s := webtest.NewConfigSite(t, func(c *site.Config) { c.BaseURL = "https://speedmatrix.example" })
	resp, _ := webtest.NewVisitor(t, s).Post("/signup", url.Values{"handle": {"sec"}, "email": {"s@example.com"}, "password": {webtest.Password}})
	if c := resp.Header.Get("Set-Cookie"); !strings.Contains(c, "Secure") || !strings.Contains(c, "HttpOnly") {
		t.Errorf("session cookie over https = %q, want Secure", c)
	}
}

// TestSessionFixation: a session id the browser had before signing in,
// planted or its own, is worthless afterwards; sign out everywhere ends
// every session.
func TestSessionFixation(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	v.Signup("fixed", "fixed@example.com", webtest.Password)
	before := v.Session()
	u, _ := url.Parse(s.URL)
	if resp := v.Login("fixed@example.com", webtest.Password, "/account"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in = %d", resp.StatusCode)
	}
	after := v.Session()
	if after == "" || after == before {
		t.Fatalf("the session cookie did not change at sign-in")
	}
	// The earlier id no longer signs anyone in.
	attacker := webtest.NewVisitor(t, s)
	attacker.Jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: before, Path: "/"}})
	if resp, _ := attacker.Get("/account"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the pre-sign-in session still works (%d)", resp.StatusCode)
	}
	// A planted value is replaced at sign-in.
	planted := webtest.NewVisitor(t, s)
	planted.Jar.SetCookies(u, []*http.Cookie{{Name: "session", Value: "planted-by-attacker", Path: "/"}})
	planted.Login("fixed@example.com", webtest.Password, "/account")
	if got := planted.Session(); got == "planted-by-attacker" || got == "" {
		t.Errorf("session after sign-in with a planted cookie = %q", got)
	}
	// Sign out everywhere: both browsers are signed out.
	if resp, _ := v.Post("/account/sessions/revoke", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign out everywhere = %d", resp.StatusCode)
	}
	if resp, _ := planted.Get("/account"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("another browser is still signed in after sign out everywhere (%d)", resp.StatusCode)
	}
}

// TestLoginRateLimit: ten failed passwords, then 429 with Retry-After,
// even for the right password.
func TestLoginRateLimit(t *testing.T) {
	s := webtest.NewSite(t)
	webtest.NewVisitor(t, s).Signup("guessed", "guessed@example.com", webtest.Password)
	v := webtest.NewVisitor(t, s)
	for i := range 10 {
		if resp := v.Login("guessed@example.com", "wrong password "+strconv.Itoa(i), "/account"); resp.StatusCode != 401 {
			t.Fatalf("failure %d = %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp := v.Login("guessed@example.com", webtest.Password, "/account")
	wait, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
	if resp.StatusCode != 429 || wait <= 0 || wait > 15*60 {
		t.Errorf("11th attempt = %d, Retry-After %q; want 429 with a wait of up to 15 minutes", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if v.Session() != "" {
		t.Error("a rate-limited sign-in set a session")
	}
}

// TestCrossOriginForms: every state-changing browser address (every POST
// outside the API) refuses a request from another site, and the same form
// from the site itself goes through.
func TestCrossOriginForms(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	v.Signup("victim", "victim@example.com", webtest.Password)
	posts := postRoutes(t, s)
	for _, want := range []string{"/signup", "/login", "/logout", "/account/tokens", "/account/tokens/revoke",
		"/account/sessions/revoke", "/account/reset", "/upload"} {
		if !posts[want] {
			t.Errorf("POST %s is not in the route table", want)
		}
	}
	for path := range posts {
		for _, h := range [][]string{{"Sec-Fetch-Site: cross-site"}, {"Sec-Fetch-Site: ", "Origin: https://evil.example"}} {
			resp, _ := v.Post(path, url.Values{"email": {"victim@example.com"}, "password": {webtest.Password}}, h...)
			if resp.StatusCode != http.StatusForbidden {
				t.Errorf("POST %s from another site (%v) = %d, want 403", path, h, resp.StatusCode)
			}
		}
	}
	if v.Session() == "" {
		t.Error("a cross-site post signed the victim out")
	}
	if resp, _ := v.Post("/account/tokens", url.Values{}); resp.StatusCode != 200 {
		t.Errorf("the same form from the site itself = %d, want 200", resp.StatusCode)
	}
}

// TestResetLink: the operator's one-time link sets a new password once,
// signs out the old sessions, and cannot be used again.
func TestResetLink(t *testing.T) {
	s := webtest.NewSite(t)
	old := webtest.NewVisitor(t, s)
	old.Signup("forgetful", "f@example.com", webtest.Password)
	secret, _ := accounts.NewSecret()
	if err := s.Store.CreateReset(context.Background(), "FORGETFUL", accounts.Hash(secret), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	v := webtest.NewVisitor(t, s)
	link := "/account/reset?token=" + url.QueryEscape(secret)
	if resp, _ := v.Get(link); resp.StatusCode != 200 || resp.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Fatalf("reset link = %d (Referrer-Policy %q)", resp.StatusCode, resp.Header.Get("Referrer-Policy"))
	}
	if resp, _ := v.Post("/account/reset", url.Values{"token": {secret}, "password": {"short"}}); resp.StatusCode != 422 {
		t.Errorf("a short new password = %d, want 422", resp.StatusCode)
	}
	if resp, _ := v.Post("/account/reset", url.Values{"token": {secret}, "password": {"a brand new passphrase"}}); resp.StatusCode != 303 || v.Session() == "" {
		t.Fatalf("reset = %d, want 303 signed in", resp.StatusCode)
	}
	if resp, _ := old.Get("/account"); resp.StatusCode != http.StatusSeeOther {
		t.Error("the session from before the reset still works")
	}
	if resp, _ := webtest.NewVisitor(t, s).Get(link); resp.StatusCode != 404 {
		t.Errorf("the used link = %d, want 404", resp.StatusCode)
	}
	if resp := webtest.NewVisitor(t, s).Login("f@example.com", webtest.Password, "/"); resp.StatusCode != 401 {
		t.Errorf("the old password = %d, want 401", resp.StatusCode)
	}
	if resp := webtest.NewVisitor(t, s).Login("f@example.com", "a brand new passphrase", "/"); resp.StatusCode != 303 {
		t.Errorf("the new password = %d, want 303", resp.StatusCode)
	}
}

// TestRetiredHandle: a deleted account's handle stays unusable.
func TestRetiredHandle(t *testing.T) {
	s := webtest.NewSite(t)
	webtest.NewVisitor(t, s).Signup("gone", "gone@example.com", webtest.Password)
	a, err := s.Store.AccountByHandle(context.Background(), "gone")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.DeleteAccount(context.Background(), a.ID); err != nil {
		t.Fatal(err)
	}
	resp, body := webtest.NewVisitor(t, s).Post("/signup?lang=en", url.Values{"handle": {"Gone"}, "email": {"new@example.com"}, "password": {webtest.Password}})
	if resp.StatusCode != 422 || !strings.Contains(body, "deleted recently") {
		t.Errorf("sign-up with a retired handle = %d, want 422 naming the reason", resp.StatusCode)
	}
}
