package mail_test

import (
	"context"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/mail"
	"github.com/speedmatrix/speedmatrix/internal/mail/mailtest"
)

// TestSendReachesTheServer: a message with a non-ASCII subject and a long
// link arrives whole, after AUTH with the URL's user and password.
func TestSendReachesTheServer(t *testing.T) {
	sink := mailtest.New(t, "site", "s3cret-pw")
	m, err := mail.Parse(sink.URL(), "Speedmatrix <noreply@speedmatrix.example>")
	if err != nil {
		t.Fatal(err)
	}
	link := "https://speedmatrix.example/account/reset?token=" + strings.Repeat("a", 80)
	if err := m.Send(context.Background(), "ana@example.org", "パスワードの再設定", "Hello,\n"+link+"\n"); err != nil {
		t.Fatal(err)
	}
	got := sink.Next(t)
	if got.To != "ana@example.org" || got.From != "noreply@speedmatrix.example" || got.User != "site" {
		t.Errorf("envelope = %+v", got)
	}
	if got.Subject != "パスワードの再設定" || !strings.Contains(got.Body, link+"\n") {
		t.Errorf("subject %q, body %q", got.Subject, got.Body)
	}
	if strings.Contains(m.String(), "s3cret-pw") {
		t.Errorf("String() shows the password: %s", m)
	}
}

// TestParseNeverQuotesThePassword: a bad URL or a failed delivery names
// the server without its password.
func TestParseNeverQuotesThePassword(t *testing.T) {
	for _, u := range []string{"http://u:hunter2hunter2@mail.example", "smtp://u:hunter2hunter2@", "smtp://u:hunter2hunter2@mail.example/path"} {
		_, err := mail.Parse(u, "a@b.example")
		if err == nil || strings.Contains(err.Error(), "hunter2hunter2") {
			t.Errorf("Parse(%q) = %v", u, err)
		}
	}
	if _, err := mail.Parse("smtp://mail.example", "not an address"); err == nil {
		t.Error("a bad sender was accepted")
	}
	m, err := mail.Parse("smtp://u:hunter2hunter2@127.0.0.1:1", "a@b.example")
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), "c@d.example", "s", "b")
	if err == nil || strings.Contains(err.Error(), "hunter2hunter2") {
		t.Errorf("Send to a closed port = %v", err)
	}
	if err := m.Send(context.Background(), "c@d.example\r\nBcc: e@f.example", "s", "b"); err == nil {
		t.Error("a recipient with a line break was accepted")
	}
}
