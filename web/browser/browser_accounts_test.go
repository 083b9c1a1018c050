package browser_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowserAccount is a new user's whole way in real Chromium: sign up,
// make a token, upload with it by lil-bench's protocol (whoami, then the
// gzip POST), see the run verified under the account, see a second run
// a moderator hid (no Show), edit the first's details, hide it, delete it
// (410). On the way it audits every signed-in page with axe-core in every
// language.
func TestBrowserAccount(t *testing.T) {
	axe := readAxe(t)
	browser := newBrowserFor(t, 5*time.Minute)
	s := webtest.NewSite(t)
	tab, watch := newWatchedTab(t, browser)
	audit := func(path string) {
		t.Helper()
		for _, lang := range i18n.Languages {
			auditPage(t, tab, watch, axe, s.URL, withLang(path, lang.Tag), 200)
		}
	}

	cdpDo(t, tab, "sign up",
		chromedp.Navigate(s.URL+"/signup?lang=en"),
		chromedp.SendKeys(chromedp.CSS("#a-handle"), "chromium-user"),
		chromedp.SendKeys(chromedp.CSS("#a-email"), "chromium@example.com"),
		chromedp.SendKeys(chromedp.CSS("#a-password"), webtest.Password),
		chromedp.Click(chromedp.CSS("#signup-submit")),
		chromedp.WaitReady(chromedp.CSS("#account-handle")),
	)
	if h := cdpRun(t, tab, "handle", chromedp.Text(chromedp.CSS("#account-handle"))); !strings.Contains(h, "chromium-user") {
		t.Fatalf("/account shows %q", h)
	}
	audit("/account")

	// lil-bench's address for a missing token leads to the token page.
	cdpDo(t, tab, "make a token",
		chromedp.Navigate(s.URL+"/bench/token?lang=en"),
		chromedp.WaitReady(chromedp.CSS("#token-create")),
		chromedp.Click(chromedp.CSS("#token-create")),
		chromedp.WaitReady(chromedp.CSS("#new-token")),
	)
	token := cdpRun(t, tab, "token", chromedp.Evaluate[string](`document.querySelector('#new-token').value`))
	command := cdpRun(t, tab, "command", chromedp.Evaluate[string](`document.querySelector('#new-token-command').value`))
	if !accounts.IsToken(token) || command != "LIL_BENCH_TOKEN="+token+" lil-bench upload FILE" {
		t.Fatalf("token %q, command %q", token, command)
	}
	if visible := cdpRun(t, tab, "copy button", chromedp.Evaluate[bool](`!document.querySelector('button[data-copy="new-token"]').hidden`)); !visible {
		t.Error("the token's copy button is hidden: copy.js did not run")
	}
	audit("/account/tokens")

	// lil-bench itself: whoami, then the gzip upload.
	if resp, out := webtest.LilBench(t, s, "GET", "/api/bench/whoami", token, nil); resp.StatusCode != 200 || out["login"] != "chromium-user" {
		t.Fatalf("whoami = %d %v", resp.StatusCode, out)
	}
	resp, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", token, webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"))
	id, _ := out["id"].(string)
	if resp.StatusCode != 201 || id == "" {
		t.Fatalf("lil-bench upload = %d %v", resp.StatusCode, out)
	}
	cdpDo(t, tab, "open the run", chromedp.Navigate(s.URL+"/runs/"+id+"?lang=en"), chromedp.WaitReady(chromedp.CSS("table.grid")))
	if v := cdpRun(t, tab, "verified mark", chromedp.Evaluate[string](`(document.querySelector('.submitter[data-verified="true"]') || {}).innerText || ''`)); !strings.Contains(v, "chromium-user") {
		t.Errorf("the run does not show chromium-user verified (%q)", v)
	}

	// A second run, which a moderator hides: the list says so with the
	// reason and offers no Show.
	resp, out = webtest.LilBench(t, s, "POST", "/api/bench/runs", token, webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_1gpu.json"))
	spam, _ := out["id"].(string)
	if resp.StatusCode != 201 || spam == "" {
		t.Fatalf("second lil-bench upload = %d %v", resp.StatusCode, out)
	}
	if err := s.Store.ModerateHideRun(context.Background(), spam, "operator (test)", "the same numbers under another name"); err != nil {
		t.Fatal(err)
	}
	cdpDo(t, tab, "the moderated run", chromedp.Navigate(s.URL+"/account/runs?lang=en"),
		chromedp.WaitReady(chromedp.CSS(`li[data-run="`+spam+`"][data-moderated="true"]`)))
	row := cdpRun(t, tab, "moderated row", chromedp.Text(chromedp.CSS(`li[data-run="`+spam+`"]`)))
	if !strings.Contains(row, "hidden by the moderators") || !strings.Contains(row, "the same numbers under another name") {
		t.Errorf("the moderated run's row says %q", row)
	}
	if n := cdpRun(t, tab, "show buttons", chromedp.Evaluate[int](`document.querySelectorAll('li[data-run="`+spam+`"] [data-action="show"]').length`)); n != 0 {
		t.Error("the moderated run has a Show button")
	}

	browserEditHideDelete(t, tab, s, id, audit)
}

// browserEditHideDelete edits the run's details from /account/runs, hides
// it, and deletes it with the confirmation.
func browserEditHideDelete(t *testing.T, tab context.Context, s *webtest.Site, id string, audit func(string)) {
	sel := `li[data-run="` + id + `"] `
	cdpDo(t, tab, "edit the details",
		chromedp.Navigate(s.URL+"/account/runs?lang=en"),
		chromedp.WaitReady(chromedp.CSS(sel+`a[data-action="edit"]`)),
		chromedp.Click(chromedp.CSS(sel+`a[data-action="edit"]`)),
		chromedp.WaitReady(chromedp.CSS("#f-driver")),
		chromedp.SetValue(chromedp.CSS("#f-driver"), "580.65.06 (edited)"),
		chromedp.Click(chromedp.CSS("#edit-submit")),
		chromedp.WaitReady(chromedp.CSS(`.edited[data-edited="true"]`)),
	)
	if body := cdpRun(t, tab, "report", chromedp.Text(chromedp.CSS("main"))); !strings.Contains(body, "580.65.06 (edited)") {
		t.Error("the edited driver is not on the report")
	}
	audit("/account/runs/" + id + "/edit")
	audit("/account/runs")
	cdpDo(t, tab, "hide",
		chromedp.Navigate(s.URL+"/account/runs?lang=en"),
		chromedp.Click(chromedp.CSS(sel+`button[data-action="hide"]`)),
		chromedp.WaitReady(chromedp.CSS(`li[data-run="`+id+`"][data-hidden="true"]`)),
	)
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 404 {
		t.Errorf("hidden run = %d, want 404", resp.StatusCode)
	}
	cdpDo(t, tab, "delete",
		chromedp.Click(chromedp.CSS(sel+`input[name="confirm"]`)),
		chromedp.Click(chromedp.CSS(sel+`button[data-action="delete"]`)),
		chromedp.WaitNotPresent(chromedp.CSS(`li[data-run="`+id+`"]`)),
		chromedp.Navigate(s.URL+"/runs/"+id+"?lang=en"),
		chromedp.WaitReady(chromedp.CSS("main")),
	)
	if body := cdpRun(t, tab, "gone page", chromedp.Text(chromedp.CSS("main"))); !strings.Contains(body, "deleted by the person who uploaded it") {
		t.Errorf("the deleted run's page says %q", body)
	}
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 410 {
		t.Errorf("deleted run = %d, want 410", resp.StatusCode)
	}
	// The reset page, from a link the operator made.
	secret, _ := accounts.NewSecret()
	if err := s.Store.CreateReset(context.Background(), "chromium-user", accounts.Hash(secret), time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	audit("/account/reset?token=" + url.QueryEscape(secret))
	// The moderators' page, with one act in its log.
	if err := s.Store.GrantAdmin(context.Background(), "chromium-user", "operator (test)"); err != nil {
		t.Fatal(err)
	}
	audit("/admin/audit")
}
