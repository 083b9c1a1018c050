package upload_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// wantNothingPublished checks no run is stored and the drafts are kept.
func wantNothingPublished(t *testing.T, s *webtest.Site, drafts int) {
	t.Helper()
	if n := s.RowCounts(t); !strings.HasPrefix(n, "runs=0 ") {
		t.Errorf("a run was published: %s", n)
	}
	if n := s.DraftCount(t); n != drafts {
		t.Errorf("%d drafts, want %d kept", n, drafts)
	}
}

// wantSignInRefusal checks a publication refused until handle signs in:
// 403, the message, and a link to sign in that returns to the preview.
func wantSignInRefusal(t *testing.T, resp *http.Response, page, handle, draft string) {
	t.Helper()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("publish = %d → %q, want 403: %.300s", resp.StatusCode, resp.Header.Get("Location"), page)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
	if msg := doc.Find(`#upload-errors`).Text(); !strings.Contains(msg, "to be published as @"+handle+", who is not signed in") {
		t.Errorf("the refusal says %q, want who must sign in", msg)
	}
	back := "/login?" + url.Values{"next": {draft}}.Encode()
	if href, _ := doc.Find(`#draft-sign-in a`).Attr("href"); href != back {
		t.Errorf("sign-in link %q, want one back to %s", href, draft)
	}
}

// TestDraftOfSuspendedAccount: a draft uploaded signed in is published
// under its account only while that account is signed in in the browser.
// Once an admin suspends the account (its sessions end), publishing with
// the drafts cookie alone is refused, saying who must sign in; the draft
// stays, and nothing is published.
func TestDraftOfSuspendedAccount(t *testing.T) {
	s := webtest.NewSite(t)
	carol := webtest.NewVisitor(t, s)
	carol.Signup("carol", "carol@example.com", webtest.Password)
	draft := carol.DraftAs(webtest.ReadFile(t, webtest.LilBenchFile))

	mod := webtest.NewVisitor(t, s)
	mod.Signup("moderator", "mod@example.com", webtest.Password)
	if err := s.Store.GrantAdmin(context.Background(), "moderator", "operator (test)"); err != nil {
		t.Fatal(err)
	}
	if resp, _ := mod.Post("/admin/suspend", url.Values{"target": {"carol"}, "reason": {"spam uploads"}}); resp.StatusCode != http.StatusOK {
		t.Fatalf("suspend = %d", resp.StatusCode)
	}
	resp, page := carol.Post(draft, url.Values{"action": {"publish"}, "os": {"Ubuntu 24.04"}})
	wantSignInRefusal(t, resp, page, "carol", draft)
	wantNothingPublished(t, s, 1)
	if resp, page := carol.Get(draft); resp.StatusCode != http.StatusOK || !strings.Contains(page, "Ubuntu 24.04") {
		t.Errorf("the preview after the refusal = %d, want it kept with the field typed", resp.StatusCode)
	}
}

// TestDraftForgottenAtSignOut: signing out forgets the browser's drafts of
// the account: the drafts cookie no longer opens or publishes them, nor
// does another account signing in on that browser. They are the
// account's, not lost: signed in again, it publishes them, verified.
func TestDraftForgottenAtSignOut(t *testing.T) {
	s := webtest.NewSite(t)
	b := webtest.NewVisitor(t, s)
	b.Signup("carol", "carol@example.com", webtest.Password)
	draft := b.DraftAs(webtest.ReadFile(t, webtest.LilBenchFile))
	if resp, _ := b.Post("/logout", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-out = %d", resp.StatusCode)
	}
	if resp, _ := b.Post(draft, url.Values{"action": {"publish"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("publishing with the drafts cookie after sign-out = %d → %q, want 404", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := b.Get(draft); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the preview after sign-out = %d, want 404", resp.StatusCode)
	}
	b.Signup("dave", "dave@example.com", webtest.Password)
	if resp, _ := b.Post(draft, url.Values{"action": {"publish"}}); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account publishing the draft on that browser = %d, want 404", resp.StatusCode)
	}
	wantNothingPublished(t, s, 1)

	if resp := b.Login("carol@example.com", webtest.Password, draft); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != draft {
		t.Fatalf("signing in again = %d → %q, want back to the preview", resp.StatusCode, resp.Header.Get("Location"))
	}
	if resp, _ := b.Get(draft); resp.StatusCode != http.StatusOK {
		t.Fatalf("the preview signed in again = %d, want 200", resp.StatusCode)
	}
	resp, _ := b.Post(draft, url.Values{"action": {"publish"}})
	id := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"), "#share")
	if resp.StatusCode != http.StatusSeeOther || id == "" {
		t.Fatalf("publishing signed in again = %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if r, err := s.Store.GetRun(context.Background(), id); err != nil || r.Submitter != "carol" || !r.SubmitterVerified {
		t.Errorf("published run = %+v (%v), want carol's, verified", r, err)
	}
}

// TestDraftPublishedByItsAccountNow: who publishes is decided when the
// draft is published: another account signed in on the browser is
// refused; a draft a token uploaded through the form publishes with that
// token again, not without it; an anonymous draft publishes anonymously.
func TestDraftPublishedByItsAccountNow(t *testing.T) {
	s := webtest.NewSite(t)
	carol := webtest.NewVisitor(t, s)
	carol.Signup("carol", "carol@example.com", webtest.Password)
	token := carol.CreateToken()
	if resp, _ := carol.Post("/logout", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Fatal("sign-out")
	}

	script := webtest.NewVisitor(t, s)
	draft := script.DraftAs(webtest.ReadFile(t, webtest.LilBenchFile), "Authorization: Bearer "+token)
	resp, page := script.Post(draft, url.Values{"action": {"publish"}})
	wantSignInRefusal(t, resp, page, "carol", draft)
	script.Signup("dave", "dave@example.com", webtest.Password)
	resp, page = script.Post(draft, url.Values{"action": {"publish"}})
	wantSignInRefusal(t, resp, page, "carol", draft)
	wantNothingPublished(t, s, 1)
	if resp, _ := script.Post(draft, url.Values{"action": {"publish"}}, "Authorization: Bearer "+token); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("publishing with the token that uploaded it = %d, want 303", resp.StatusCode)
	}

	anonymous := webtest.NewVisitor(t, s)
	draft = anonymous.DraftAs(webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"))
	anonymous.Signup("erin", "erin@example.com", webtest.Password)
	resp, _ = anonymous.Post(draft, url.Values{"action": {"publish"}})
	id := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"), "#share")
	if r, err := s.Store.GetRun(context.Background(), id); err != nil || r.SubmitterVerified {
		t.Errorf("the anonymous draft published as %+v (%v), want anonymous", r, err)
	}
}
