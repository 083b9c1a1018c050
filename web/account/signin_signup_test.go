package account_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/mail/mailtest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestSignupByMailHidesTakenAddresses: with mail, a sign-up with a taken
// address answers exactly as one with a new address, signs nobody in, and
// mails the owner a note; the new address gets a link that creates the
// account, confirmed, once.
func TestSignupByMailHidesTakenAddresses(t *testing.T) {
	s, sink, _ := newMailSite(t)
	webtest.MustAccount(t, s, "ana", "ana@example.org", "old-password-1", false)
	taken, fresh := webtest.NewVisitor(t, s), webtest.NewVisitor(t, s)
	r1, b1 := taken.Post("/signup", url.Values{"handle": {"newbie"}, "email": {"ana@example.org"}, "password": {"long-password-1"}})
	r2, b2 := fresh.Post("/signup", url.Values{"handle": {"newbie"}, "email": {"bo@example.org"}, "password": {"long-password-2"}})
	if r1.StatusCode != http.StatusOK || r1.StatusCode != r2.StatusCode || taken.Session() != "" || fresh.Session() != "" {
		t.Fatalf("sign-ups = %d, %d (sessions %q, %q): %.300s", r1.StatusCode, r2.StatusCode, taken.Session(), fresh.Session(), b1)
	}
	if strings.ReplaceAll(b1, "ana@example.org", "@") != strings.ReplaceAll(b2, "bo@example.org", "@") || !strings.Contains(b1, `id="signup-sent"`) {
		t.Error("the answer for a taken address differs from a new one's")
	}
	mails := map[string]mailtest.Message{}
	for range 2 {
		m := sink.Next(t)
		mails[m.To] = m
	}
	note := mails["ana@example.org"]
	if note.Subject != "Someone tried to sign up with your address" || !strings.Contains(note.Body, "/login/forgot") {
		t.Errorf("note to the owner = %+v", note)
	}
	link := webtest.LinkIn(t, mails["bo@example.org"].Body, "/signup/confirm")
	if _, err := s.Store.AccountByEmail(context.Background(), "bo@example.org"); err == nil {
		t.Fatal("the account exists before its address is confirmed")
	}
	if resp, body := fresh.Get(link); resp.StatusCode != http.StatusOK || !strings.Contains(body, "newbie") {
		t.Fatalf("confirmation link = %d", resp.StatusCode)
	}
	token := strings.TrimPrefix(link, "/signup/confirm?token=")
	resp, _ := fresh.Post("/signup/confirm", url.Values{"token": {token}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account" || fresh.Session() == "" {
		t.Fatalf("confirming = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	a, err := s.Store.AccountByEmail(context.Background(), "bo@example.org")
	if err != nil || a.Handle != "newbie" || !a.EmailVerified {
		t.Fatalf("account = %+v, %v", a, err)
	}
	if resp, _ := webtest.NewVisitor(t, s).Post("/signup/confirm", url.Values{"token": {token}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the link used again = %d, want 404", resp.StatusCode)
	}
	// A taken handle is refused: handles are public anyway.
	resp, body := webtest.NewVisitor(t, s).Post("/signup", url.Values{"handle": {"NEWBIE"}, "email": {"cy@example.org"}, "password": {"long-password-3"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "That handle is already in use") {
		t.Errorf("taken handle = %d", resp.StatusCode)
	}
}

// TestConfirmOlderAddress: an account made before the site sent mail
// confirms its address from /account through a mailed link, and only then
// gets reset links.
func TestConfirmOlderAddress(t *testing.T) {
	s, sink, _ := newMailSite(t)
	webtest.MustAccount(t, s, "ana", "ana@example.org", "old-password-1", false)
	v := webtest.NewVisitor(t, s)
	v.Login("ana@example.org", "old-password-1", "/account")
	if _, body := v.Get("/account"); !strings.Contains(body, `data-email="unconfirmed"`) || !strings.Contains(body, `id="email-confirm"`) {
		t.Fatalf("/account offers no confirmation: %.500s", body)
	}
	if resp, body := v.Post("/account/email/confirm", nil); resp.StatusCode != http.StatusOK || !strings.Contains(body, "A confirmation link is on its way") {
		t.Fatalf("asking for the link = %d", resp.StatusCode)
	}
	link := webtest.LinkIn(t, sink.Next(t).Body, "/account/email/verify")
	if resp, _ := v.Get(link); resp.StatusCode != http.StatusOK {
		t.Fatalf("link = %d", resp.StatusCode)
	}
	token := strings.TrimPrefix(link, "/account/email/verify?token=")
	if resp, _ := v.Post("/account/email/verify", url.Values{"token": {token}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirming = %d", resp.StatusCode)
	}
	if _, body := v.Get("/account"); !strings.Contains(body, `data-email="confirmed"`) {
		t.Error("the address is not shown confirmed")
	}
	if resp, _ := v.Post("/account/email/verify", url.Values{"token": {token}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the link used again = %d, want 404", resp.StatusCode)
	}
	v.Post("/login/forgot", url.Values{"email": {"ana@example.org"}})
	if m := sink.Next(t); m.Subject != "Your password reset link" {
		t.Errorf("after confirming, forgot mails %q", m.Subject)
	}
}
