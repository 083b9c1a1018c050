package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowserOrg is an organisation's whole life in real Chromium: alice
// signs up and creates Acme Labs, invites bob; bob signs in, accepts,
// uploads a file as the organisation through the upload form and
// publishes it; the run is on /orgs/acme and its report says bob for Acme
// Labs. The organisation pages are audited with axe-core on the way.
func TestBrowserOrg(t *testing.T) {
	axe := readAxe(t)
	browser := newBrowserFor(t, 5*time.Minute)
	s := webtest.NewSite(t)
	hash, err := accounts.HashPassword(context.Background(), webtest.Password)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store.CreateAccount(context.Background(), "bob", "bob@example.org", hash); err != nil {
		t.Fatal(err)
	}
	tab, watch := newWatchedTab(t, browser)
	audit := func(path string) {
		t.Helper()
		for _, lang := range a11yLanguages() {
			auditPage(t, tab, watch, axe, s.URL, withLang(path, lang.Tag), 200)
		}
	}
	cdpDo(t, tab, "alice signs up and creates the organisation",
		chromedp.Navigate(s.URL+"/signup?lang=en"),
		chromedp.SendKeys(chromedp.CSS("#a-handle"), "alice"),
		chromedp.SendKeys(chromedp.CSS("#a-email"), "alice@example.org"),
		chromedp.SendKeys(chromedp.CSS("#a-password"), webtest.Password),
		chromedp.Click(chromedp.CSS("#signup-submit")),
		chromedp.WaitReady(chromedp.CSS("#account-handle")),
		chromedp.Click(chromedp.CSS(`a[href="/account/orgs"]`)),
		chromedp.WaitReady(chromedp.CSS("#org-create")),
		chromedp.SendKeys(chromedp.CSS("#a-org_slug"), "acme"),
		chromedp.SendKeys(chromedp.CSS("#a-org_name"), "Acme Labs"),
		chromedp.Click(chromedp.CSS("#org-create")),
		chromedp.WaitReady(chromedp.CSS(`li[data-handle="alice"]`)),
	)
	cdpDo(t, tab, "alice invites bob",
		chromedp.Navigate(s.URL+"/account/orgs/acme?lang=en"),
		chromedp.WaitReady(chromedp.CSS("#org-invite")),
		chromedp.SendKeys(chromedp.CSS("#a-invite_handle"), "bob"),
		chromedp.Click(chromedp.CSS("#org-invite")),
		chromedp.WaitReady(chromedp.CSS(`li[data-invited="bob"]`)),
	)
	audit("/account/orgs/acme")
	audit("/account/orgs")
	cdpDo(t, tab, "alice signs out, bob signs in and accepts",
		chromedp.Navigate(s.URL+"/account?lang=en"),
		chromedp.Click(chromedp.CSS("#logout")),
		// Sign-out leads home: wait for it, or the next navigation cuts it off.
		chromedp.WaitReady(chromedp.CSS("#h-recent")),
		chromedp.Navigate(s.URL+"/login?lang=en&next=/account/orgs"),
		chromedp.SendKeys(chromedp.CSS("#a-email"), "bob@example.org"),
		chromedp.SendKeys(chromedp.CSS("#a-password"), webtest.Password),
		chromedp.Click(chromedp.CSS("#login-submit")),
		chromedp.WaitReady(chromedp.CSS(`li[data-invite="acme"]`)),
	)
	audit("/account/orgs")
	cdpDo(t, tab, "bob accepts",
		chromedp.Click(chromedp.CSS(`li[data-invite="acme"] button[data-action="accept"]`)),
		chromedp.WaitReady(chromedp.CSS(`li[data-org="acme"]`)),
	)
	browserOrgUpload(t, tab, s)
}

// browserOrgUpload uploads the lil-bench file as acme through the form,
// publishes it, and checks the report and the organisation's page.
func browserOrgUpload(t *testing.T, tab context.Context, s *webtest.Site) {
	file := writeFiles(t, []archive.File{{Name: "run.json", Data: webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")}})
	cdpDo(t, tab, "upload as acme",
		chromedp.Navigate(s.URL+"/upload?lang=en"),
		chromedp.WaitReady(chromedp.CSS("#as-acme")),
		chromedp.Click(chromedp.CSS("#as-acme")),
		chromedp.SetUploadFiles(chromedp.CSS("#f-file"), file),
		chromedp.Click(chromedp.CSS("#upload-submit")),
		chromedp.WaitReady(chromedp.CSS("#draft-form")),
		chromedp.Click(chromedp.CSS("#draft-publish")),
		chromedp.WaitReady(chromedp.CSS("#share")),
	)
	by := cdpRun(t, tab, "byline", chromedp.Text(chromedp.CSS(`.submitter[data-verified="true"]`)))
	if !strings.Contains(by, "@bob") || !strings.Contains(by, "for Acme Labs") {
		t.Errorf("the report's submitter says %q, want bob for Acme Labs", by)
	}
	id := cdpRun(t, tab, "run id", chromedp.Evaluate[string](`location.pathname.split('/').pop()`))
	cdpDo(t, tab, "the organisation's page", chromedp.Click(chromedp.CSS(`a.org[href="/orgs/acme"]`)),
		chromedp.WaitReady(chromedp.CSS(`li[data-run="`+id+`"]`)))
	if members := cdpRun(t, tab, "members", chromedp.Text(chromedp.CSS("ul.org-members"))); !strings.Contains(members, "@alice") || !strings.Contains(members, "@bob") {
		t.Errorf("/orgs/acme lists %q, want alice and bob", members)
	}
}
