package browser_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/mail"
	"github.com/speedmatrix/speedmatrix/internal/mail/mailtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestAccessibilitySignIn audits the sign-in pages with mail and GitHub
// on, in the languages of the audit: sign-in and sign-up with the GitHub
// button, the forgotten-password form and its answer, the sign-up's
// answer and its mailed link, the address link, the GitHub handle form,
// and /account with an unconfirmed address and GitHub to link.
func TestAccessibilitySignIn(t *testing.T) {
	axe := readAxe(t)
	browser := newBrowserFor(t, a11yLife)
	sink := mailtest.New(t, "site", webtest.SMTPPassword)
	m, err := mail.Parse(sink.URL(), "noreply@speedmatrix.example")
	if err != nil {
		t.Fatal(err)
	}
	gh := webtest.NewGitHub(t)
	s := webtest.NewConfigSite(t, func(c *site.Config) {
		c.Mailer = m
		c.GitHub = site.GitHubApp{ClientID: "gh-id", ClientSecret: "gh-secret"}
		site.WithGitHubEndpoints(c, gh.URL+"/authorize", gh.URL+"/token", gh.URL+"/api")
	})
	webtest.MustAccount(t, s, "ana", "ana@example.org", webtest.Password, false)
	// A GitHub sign-up waiting for its handle, as this browser's cookie.
	pending, _ := accounts.NewSecret()
	p := store.PendingSignup{Handle: "ana", Provider: "github", UserID: "77"}
	if err := s.Store.CreatePendingSignup(context.Background(), accounts.Hash(pending), p, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	tab, w := newWatchedTab(t, browser)
	cdpDo(t, tab, "open the site", chromedp.Navigate(s.URL+"/login?lang=en"))
	cdpRun(t, tab, "set the pending cookie", chromedp.Evaluate[bool](`document.cookie = "signup_pending=`+pending+`; path=/"; true`))
	for _, lang := range a11yLanguages() {
		t.Run(lang.Tag, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(tab, 4*pageTimeout)
			defer cancel()
			for _, path := range []string{"/login", "/signup", "/login/forgot", "/account/email/verify?token=x", "/login/github/handle"} {
				auditPage(t, ctx, w, axe, s.URL, withLang(path, lang.Tag), 200)
			}
			cdpDo(t, ctx, "ask for a reset link", chromedp.Navigate(s.URL+withLang("/login/forgot", lang.Tag)),
				chromedp.SendKeys(chromedp.CSS("#a-email"), lang.Tag+"@example.org"),
				chromedp.Click(chromedp.CSS("#forgot-submit")), chromedp.WaitReady(chromedp.CSS("#forgot-sent")))
			auditHere(t, ctx, w, axe, "forgot: sent", 200, nil)
			cdpDo(t, ctx, "sign up", chromedp.Navigate(s.URL+withLang("/signup", lang.Tag)),
				chromedp.SendKeys(chromedp.CSS("#a-handle"), "new-"+lang.Tag),
				chromedp.SendKeys(chromedp.CSS("#a-email"), "new-"+lang.Tag+"@example.org"),
				chromedp.SendKeys(chromedp.CSS("#a-password"), webtest.Password),
				chromedp.Click(chromedp.CSS("#signup-submit")), chromedp.WaitReady(chromedp.CSS("#signup-sent")))
			auditHere(t, ctx, w, axe, "sign-up: sent", 200, nil)
			link := webtest.LinkIn(t, sink.Next(t).Body, "/signup/confirm")
			auditPage(t, ctx, w, axe, s.URL, withLang(link, lang.Tag), 200)
			cdpDo(t, ctx, "sign in", chromedp.Navigate(s.URL+withLang("/login", lang.Tag)),
				chromedp.SendKeys(chromedp.CSS("#a-email"), "ana@example.org"),
				chromedp.SendKeys(chromedp.CSS("#a-password"), webtest.Password),
				chromedp.Click(chromedp.CSS("#login-submit")), chromedp.WaitReady(chromedp.CSS("#github-link")))
			auditPage(t, ctx, w, axe, s.URL, withLang("/account", lang.Tag), 200)
			// Sign-out leads home: wait for it, or the next navigation cuts it off.
			cdpDo(t, ctx, "sign out", chromedp.Click(chromedp.CSS("#logout")), chromedp.WaitReady(chromedp.CSS("#h-recent")))
		})
	}
}
