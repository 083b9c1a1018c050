package account_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/mail"
	"github.com/speedmatrix/speedmatrix/internal/mail/mailtest"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// syncBuffer is a log the background mailer and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newMailSite is a site that mails through a local SMTP sink, logging
// into the returned buffer.
func newMailSite(t *testing.T) (*webtest.Site, *mailtest.Sink, *syncBuffer) {
	t.Helper()
	sink := mailtest.New(t, "site", webtest.SMTPPassword)
	m, err := mail.Parse(sink.URL(), "speedmatrix <noreply@speedmatrix.example>")
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	s := webtest.NewConfigSite(t, func(c *site.Config) {
		c.Mailer = m
		c.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	return s, sink, logs
}

// TestForgotPasswordByMail: the form answers the same for an address
// with an account and one without; the mail, in the reader's language,
// carries a link that sets a new password once; an unconfirmed address
// gets nothing; the form is limited per address; no log line shows the
// SMTP password.
func TestForgotPasswordByMail(t *testing.T) {
	s, sink, logs := newMailSite(t)
	webtest.MustAccount(t, s, "ana", "ana@example.org", "old-password-1", true)
	webtest.MustAccount(t, s, "unsure", "unsure@example.org", "old-password-2", false)
	v := webtest.NewVisitor(t, s)
	if _, body := v.Get("/login"); !strings.Contains(body, `href="/login/forgot"`) {
		t.Fatal("/login offers no forgotten-password link")
	}
	var answers []string
	for _, email := range []string{"nobody@example.org", "unsure@example.org", "ana@example.org"} {
		resp, body := v.Post("/login/forgot", url.Values{"email": {email}})
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `id="forgot-sent"`) {
			t.Fatalf("forgot %s = %d: %.300s", email, resp.StatusCode, body)
		}
		answers = append(answers, body)
	}
	if answers[0] != answers[1] || answers[0] != answers[2] {
		t.Error("the answers differ between addresses with and without an account")
	}
	msg := sink.Next(t) // nobody and the unconfirmed address get none
	if msg.To != "ana@example.org" || msg.Subject != "Your password reset link" || msg.User != "site" {
		t.Fatalf("mail = %+v", msg)
	}
	link := webtest.LinkIn(t, msg.Body, "/account/reset")
	if resp, _ := v.Get(link); resp.StatusCode != http.StatusOK {
		t.Fatalf("reset link = %d", resp.StatusCode)
	}
	token := strings.TrimPrefix(link, "/account/reset?token=")
	resp, _ := v.Post("/account/reset", url.Values{"token": {token}, "password": {"new-password-9"}})
	if resp.StatusCode != http.StatusSeeOther || v.Session() == "" {
		t.Fatalf("setting the password = %d", resp.StatusCode)
	}
	if resp := webtest.NewVisitor(t, s).Login("ana@example.org", "new-password-9", "/account"); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("sign-in with the new password = %d", resp.StatusCode)
	}
	if resp := webtest.NewVisitor(t, s).Login("ana@example.org", "old-password-1", "/account"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("sign-in with the old password = %d", resp.StatusCode)
	}
	if resp, _ := v.Get(link); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the link opened again = %d, want 404", resp.StatusCode)
	}
	if resp, _ := v.Post("/account/reset", url.Values{"token": {token}, "password": {"third-password"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the link used again = %d, want 404", resp.StatusCode)
	}
	// In Japanese, then the address's budget is spent.
	ja := webtest.NewVisitor(t, s)
	if resp, _ := ja.Post("/login/forgot", url.Values{"email": {"ana@example.org"}}, "Accept-Language: ja"); resp.StatusCode != http.StatusOK {
		t.Fatalf("forgot in Japanese = %d", resp.StatusCode)
	}
	if msg := sink.Next(t); msg.Subject != "パスワード再設定用のリンク" || !strings.Contains(msg.Body, "ana さん") {
		t.Errorf("Japanese mail subject = %q", msg.Subject)
	}
	_, _ = ja.Post("/login/forgot", url.Values{"email": {"ANA@example.org"}})
	sink.Next(t)
	resp, body := ja.Post("/login/forgot", url.Values{"email": {"ana@example.org"}})
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || strings.Contains(body, `id="forgot-sent"`) {
		t.Errorf("fourth request for one address in an hour = %d (Retry-After %q)", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if strings.Contains(logs.String(), webtest.SMTPPassword) || strings.Contains(logs.String(), token) {
		t.Errorf("the log shows a secret:\n%s", logs.String())
	}
}

// TestForgotWithoutMail: without SMTP_URL the page says to ask the
// operator, and mails nothing.
func TestForgotWithoutMail(t *testing.T) {
	s := webtest.NewSite(t)
	v := webtest.NewVisitor(t, s)
	for _, resp := range []func() (*http.Response, string){
		func() (*http.Response, string) { return v.Get("/login/forgot") },
		func() (*http.Response, string) {
			return v.Post("/login/forgot", url.Values{"email": {"a@example.org"}})
		},
	} {
		r, body := resp()
		if r.StatusCode != http.StatusOK || !strings.Contains(body, `id="forgot-operator"`) || strings.Contains(body, `id="forgot-sent"`) {
			t.Errorf("= %d: %.300s", r.StatusCode, body)
		}
	}
}

// TestFailedMailLogsNoPassword: a delivery that fails is logged, naming
// the server with its password masked.
func TestFailedMailLogsNoPassword(t *testing.T) {
	m, err := mail.Parse("smtp://site:"+webtest.SMTPPassword+"@127.0.0.1:1", "noreply@speedmatrix.example")
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	s := webtest.NewConfigSite(t, func(c *site.Config) { c.Mailer = m; c.Logger = slog.New(slog.NewTextHandler(logs, nil)) })
	webtest.MustAccount(t, s, "ana", "ana@example.org", "old-password-1", true)
	if resp, _ := webtest.NewVisitor(t, s).Post("/login/forgot", url.Values{"email": {"ana@example.org"}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("forgot = %d", resp.StatusCode)
	}
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(logs.String(), "mail not sent"); {
		if time.Now().After(deadline) {
			t.Fatalf("no failure logged:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if strings.Contains(logs.String(), webtest.SMTPPassword) || strings.Contains(logs.String(), "ana@example.org") {
		t.Errorf("the log shows the password or the address:\n%s", logs.String())
	}
}
