package account_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/mail"
	"github.com/speedmatrix/speedmatrix/internal/mail/mailtest"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// attackerHost is the Host header an attacker sends: a link built from it
// hands them the token.
const attackerHost = "attacker.example"

// linkRe finds the links of a mail.
var linkRe = regexp.MustCompile(`https?://[^\s"<>]+`)

// TestMailWithoutBaseURLRefused: a server that mails, or signs in with
// GitHub, without BaseURL cannot be built, since the only origin it would
// have for its links is the request's Host. Were one built, the test
// replays the attack on it (a reset asked for with Host: attacker.example)
// and says where the mailed link went.
func TestMailWithoutBaseURLRefused(t *testing.T) {
	sink := mailtest.New(t, "site", webtest.SMTPPassword)
	m, err := mail.Parse(sink.URL(), "noreply@speedmatrix.example")
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*site.Config){
		"mail":   func(c *site.Config) { c.Mailer = m },
		"GitHub": func(c *site.Config) { c.GitHub = site.GitHubApp{ClientID: "gh-id", ClientSecret: "gh-secret"} },
	} {
		t.Run(name, func(t *testing.T) {
			st, _ := dbtest.New(t)
			b, err := i18n.Default()
			if err != nil {
				t.Fatal(err)
			}
			cfg := site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler)}
			edit(&cfg)
			h, refusal := build(cfg)
			if h == nil {
				if !strings.Contains(fmt.Sprint(refusal), "BaseURL") {
					t.Errorf("refused with %v; want a refusal naming BaseURL", refusal)
				}
				return
			}
			if cfg.Mailer == nil {
				t.Fatal("site.New built a GitHub sign-in without BaseURL: its callback follows the request's Host")
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			s := &webtest.Site{Server: srv, Store: st}
			webtest.MustAccount(t, s, "victim", "victim@example.org", "victim-password-1", true)
			webtest.NewVisitor(t, s).Post("/login/forgot", url.Values{"email": {"victim@example.org"}}, "Host: "+attackerHost)
			t.Fatalf("site.New built a mail site without BaseURL; its reset mail links to %v", linkRe.FindAllString(sink.Next(t).Body, -1))
		})
	}
}

// build is site.New(cfg), or what it panicked with.
func build(cfg site.Config) (h http.Handler, refusal any) {
	defer func() { refusal = recover() }()
	return site.New(cfg), nil
}

// TestMailedLinksFromBaseURL: every mail a form sends (a reset, a
// sign-up's link, the note to a taken address's owner, an address's
// confirmation) links under BaseURL when the request came with Host:
// attacker.example, and the reset link still works.
func TestMailedLinksFromBaseURL(t *testing.T) {
	const base = "http://sm.example"
	sink := mailtest.New(t, "site", webtest.SMTPPassword)
	m, err := mail.Parse(sink.URL(), "noreply@speedmatrix.example")
	if err != nil {
		t.Fatal(err)
	}
	s := webtest.NewConfigSite(t, func(c *site.Config) { c.Mailer = m; c.BaseURL = base })
	webtest.MustAccount(t, s, "victim", "victim@example.org", "victim-password-1", true)
	webtest.MustAccount(t, s, "unsure", "unsure@example.org", "unsure-password-1", false)
	forged := "Host: " + attackerHost
	v := webtest.NewVisitor(t, s)
	checkLinks := func(what, wantPath string) string {
		t.Helper()
		msg := sink.Next(t)
		links := linkRe.FindAllString(msg.Body, -1)
		if strings.Contains(msg.Body, attackerHost) || len(links) == 0 {
			t.Fatalf("%s: the mail names the request's host or has no link:\n%s", what, msg.Body)
		}
		found := ""
		for _, l := range links {
			if l = strings.TrimRight(l, ".,)"); l != base && !strings.HasPrefix(l, base+"/") {
				t.Errorf("%s: link %s is not under BaseURL %s", what, l, base)
			}
			if strings.HasPrefix(l, base+wantPath) {
				found = strings.TrimPrefix(l, base)
			}
		}
		if found == "" {
			t.Fatalf("%s: no link to %s in %v", what, wantPath, links)
		}
		return found
	}

	if resp, _ := v.Post("/login/forgot", url.Values{"email": {"victim@example.org"}}, forged); resp.StatusCode != http.StatusOK {
		t.Fatalf("forgot = %d", resp.StatusCode)
	}
	reset := checkLinks("reset", "/account/reset?token=")
	token := strings.TrimPrefix(reset, "/account/reset?token=")
	if resp, _ := v.Post("/account/reset", url.Values{"token": {token}, "password": {"victim-password-2"}}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the reset link under BaseURL = %d, want it to work", resp.StatusCode)
	}

	if resp, _ := webtest.NewVisitor(t, s).Post("/signup", url.Values{"handle": {"newbie"}, "email": {"newbie@example.org"}, "password": {webtest.Password}}, forged); resp.StatusCode != http.StatusOK {
		t.Fatalf("sign-up = %d", resp.StatusCode)
	}
	checkLinks("sign-up", "/signup/confirm?token=")
	if resp, _ := webtest.NewVisitor(t, s).Post("/signup", url.Values{"handle": {"other"}, "email": {"victim@example.org"}, "password": {webtest.Password}}, forged); resp.StatusCode != http.StatusOK {
		t.Fatalf("sign-up with a taken address = %d", resp.StatusCode)
	}
	checkLinks("taken address", "/login/forgot")

	u := webtest.NewVisitor(t, s)
	if resp := u.Login("unsure@example.org", "unsure-password-1", "/account"); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in = %d", resp.StatusCode)
	}
	// The jar keys cookies by Host, so the forged request carries the
	// session by hand.
	if resp, _ := u.Post("/account/email/confirm", url.Values{}, forged, "Cookie: session="+u.Session()); resp.StatusCode != http.StatusOK {
		t.Fatalf("address confirmation = %d %s (session %q)", resp.StatusCode, resp.Header.Get("Location"), u.Session())
	}
	checkLinks("address confirmation", "/account/email/verify?token=")
}

// TestGitHubCallbackFromBaseURL: the redirect_uri sent to GitHub is under
// BaseURL whatever Host the sign-in came with.
func TestGitHubCallbackFromBaseURL(t *testing.T) {
	const base = "https://sm.example"
	s := webtest.NewConfigSite(t, func(c *site.Config) {
		c.BaseURL = base
		c.GitHub = site.GitHubApp{ClientID: "gh-id", ClientSecret: "gh-secret"}
		site.WithGitHubEndpoints(c, "https://gh.example/authorize", "https://gh.example/token", "https://gh.example/api")
	})
	resp, _ := webtest.NewVisitor(t, s).Post("/login/github", url.Values{}, "Host: "+attackerHost)
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || err != nil {
		t.Fatalf("POST /login/github = %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := loc.Query().Get("redirect_uri"); got != base+"/login/github/callback" {
		t.Errorf("redirect_uri = %q, want %s/login/github/callback", got, base)
	}
}
