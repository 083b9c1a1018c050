package site_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/mail/mailtest"
)

// TestSignupByMailHidesTakenAddresses: with mail, a sign-up with a taken
// address answers exactly as one with a new address, signs nobody in, and
// mails the owner a note; the new address gets a link that creates the
// account, confirmed, once.
func TestSignupByMailHidesTakenAddresses(t *testing.T) {
	s, sink, _ := newMailSite(t)
	mustAccount(t, s, "ana", "ana@example.org", "old-password-1", false)
	taken, fresh := newVisitor(t, s), newVisitor(t, s)
	r1, b1 := taken.post("/signup", url.Values{"handle": {"newbie"}, "email": {"ana@example.org"}, "password": {"long-password-1"}})
	r2, b2 := fresh.post("/signup", url.Values{"handle": {"newbie"}, "email": {"bo@example.org"}, "password": {"long-password-2"}})
	if r1.StatusCode != http.StatusOK || r1.StatusCode != r2.StatusCode || taken.session() != "" || fresh.session() != "" {
		t.Fatalf("sign-ups = %d, %d (sessions %q, %q): %.300s", r1.StatusCode, r2.StatusCode, taken.session(), fresh.session(), b1)
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
	link := linkIn(t, mails["bo@example.org"].Body, "/signup/confirm")
	if _, err := s.store.AccountByEmail(context.Background(), "bo@example.org"); err == nil {
		t.Fatal("the account exists before its address is confirmed")
	}
	if resp, body := fresh.get(link); resp.StatusCode != http.StatusOK || !strings.Contains(body, "newbie") {
		t.Fatalf("confirmation link = %d", resp.StatusCode)
	}
	token := strings.TrimPrefix(link, "/signup/confirm?token=")
	resp, _ := fresh.post("/signup/confirm", url.Values{"token": {token}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/account" || fresh.session() == "" {
		t.Fatalf("confirming = %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	a, err := s.store.AccountByEmail(context.Background(), "bo@example.org")
	if err != nil || a.Handle != "newbie" || !a.EmailVerified {
		t.Fatalf("account = %+v, %v", a, err)
	}
	if resp, _ := newVisitor(t, s).post("/signup/confirm", url.Values{"token": {token}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the link used again = %d, want 404", resp.StatusCode)
	}
	// A taken handle is refused: handles are public anyway.
	resp, body := newVisitor(t, s).post("/signup", url.Values{"handle": {"NEWBIE"}, "email": {"cy@example.org"}, "password": {"long-password-3"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(body, "That handle is already in use") {
		t.Errorf("taken handle = %d", resp.StatusCode)
	}
}

// TestConfirmOlderAddress: an account made before the site sent mail
// confirms its address from /account through a mailed link, and only then
// gets reset links.
func TestConfirmOlderAddress(t *testing.T) {
	s, sink, _ := newMailSite(t)
	mustAccount(t, s, "ana", "ana@example.org", "old-password-1", false)
	v := newVisitor(t, s)
	v.login("ana@example.org", "old-password-1", "/account")
	if _, body := v.get("/account"); !strings.Contains(body, `data-email="unconfirmed"`) || !strings.Contains(body, `id="email-confirm"`) {
		t.Fatalf("/account offers no confirmation: %.500s", body)
	}
	if resp, body := v.post("/account/email/confirm", nil); resp.StatusCode != http.StatusOK || !strings.Contains(body, "A confirmation link is on its way") {
		t.Fatalf("asking for the link = %d", resp.StatusCode)
	}
	link := linkIn(t, sink.Next(t).Body, "/account/email/verify")
	if resp, _ := v.get(link); resp.StatusCode != http.StatusOK {
		t.Fatalf("link = %d", resp.StatusCode)
	}
	token := strings.TrimPrefix(link, "/account/email/verify?token=")
	if resp, _ := v.post("/account/email/verify", url.Values{"token": {token}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("confirming = %d", resp.StatusCode)
	}
	if _, body := v.get("/account"); !strings.Contains(body, `data-email="confirmed"`) {
		t.Error("the address is not shown confirmed")
	}
	if resp, _ := v.post("/account/email/verify", url.Values{"token": {token}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the link used again = %d, want 404", resp.StatusCode)
	}
	v.post("/login/forgot", url.Values{"email": {"ana@example.org"}})
	if m := sink.Next(t); m.Subject != "Your password reset link" {
		t.Errorf("after confirming, forgot mails %q", m.Subject)
	}
}
