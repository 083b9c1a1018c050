package account_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// orgRunDoc is the part of a run's JSON that names who uploaded it.
type orgRunDoc struct {
	Submitter struct {
		Slug, Name string
		Verified   bool
		Org        *struct{ Slug, Name string }
	} `json:"submitter"`
}

// orgRunDocOf reads the run document of the report at loc ("/runs/ID#share").
func orgRunDocOf(t *testing.T, s *webtest.Site, loc string) orgRunDoc {
	t.Helper()
	var doc orgRunDoc
	_, raw := s.Get(t, "/api/v1"+strings.TrimSuffix(loc, "#share"))
	if err := json.Unmarshal([]byte(raw), &doc); err != nil {
		t.Fatalf("run document of %s: %v: %.200s", loc, err, raw)
	}
	return doc
}

// wantStatus fails unless resp answered status.
func wantStatus(t *testing.T, what string, resp *http.Response, body string, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Errorf("%s = %d, want %d: %.300s", what, resp.StatusCode, status, body)
	}
}

// TestOrgForms: an account creates an organisation, invites by handle;
// the invitee accepts and is listed on the cached public page at once;
// the rules hold through the forms (no owner-less organisation, a member
// cannot invite, a stranger sees no management page).
func TestOrgForms(t *testing.T) {
	s := webtest.NewSite(t)
	alice, bob, carol := webtest.NewVisitor(t, s), webtest.NewVisitor(t, s), webtest.NewVisitor(t, s)
	alice.Signup("alice", "alice@example.org", webtest.Password)
	bob.Signup("bob", "bob@example.org", webtest.Password)
	carol.Signup("carol", "carol@example.org", webtest.Password)

	resp, page := alice.Get("/account/orgs?lang=en")
	if resp.StatusCode != 200 || !strings.Contains(page, `action="/account/orgs"`) || resp.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("/account/orgs = %d %q, want the private page with the creation form", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	for _, bad := range []url.Values{
		{"org_slug": {"BOB"}, "org_name": {"Not Bob"}}, // a handle, in another case
		{"org_slug": {"no spaces"}, "org_name": {"x"}},
		{"org_slug": {"acme"}, "org_name": {""}},
	} {
		resp, page := alice.Post("/account/orgs?lang=en", bad)
		wantStatus(t, "creating "+bad.Encode(), resp, page, 422)
	}
	resp, page = alice.Post("/account/orgs", url.Values{"org_slug": {"acme"}, "org_name": {"Acme <Labs>"}})
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/orgs/acme" {
		t.Fatalf("creating acme = %d %s: %.300s", resp.StatusCode, resp.Header.Get("Location"), page)
	}
	if resp, page := bob.Post("/account/orgs", url.Values{"org_slug": {"ACME"}, "org_name": {"Other"}}); resp.StatusCode != 422 {
		t.Errorf("a second ACME = %d, want 422: %.200s", resp.StatusCode, page)
	}
	_, public := s.Get(t, "/orgs/acme?lang=en")
	if !strings.Contains(public, `data-handle="alice"`) || strings.Contains(public, "<Labs>") || !strings.Contains(public, "Acme &lt;Labs&gt;") {
		t.Errorf("/orgs/acme does not list alice, or the name is not escaped")
	}

	wantCode(t, "a stranger's invitation", code(carol.Post("/account/orgs/acme/invite", url.Values{"invite_handle": {"bob"}})), 404)
	wantCode(t, "a stranger's management page", code(carol.Get("/account/orgs/acme")), 404)
	resp, page = alice.Post("/account/orgs/acme/invite?lang=en", url.Values{"invite_handle": {"@bob"}})
	if resp.StatusCode != 200 || !strings.Contains(page, `data-invited="bob"`) {
		t.Errorf("inviting bob = %d, bob not among the pending invitations", resp.StatusCode)
	}
	wantCode(t, "inviting nobody", code(alice.Post("/account/orgs/acme/invite", url.Values{"invite_handle": {"nobody"}})), 422)
	if _, public := s.Get(t, "/orgs/acme"); strings.Contains(public, `data-handle="bob"`) {
		t.Error("an invitee is listed as a member before accepting")
	}
	if _, page := bob.Get("/account/orgs?lang=en"); !strings.Contains(page, `data-invite="acme"`) {
		t.Error("bob's /account/orgs does not show the invitation")
	}
	wantCode(t, "bob accepts", code(bob.Post("/account/orgs/acme/accept", url.Values{})), 200)
	if _, public := s.Get(t, "/orgs/acme"); !strings.Contains(public, `data-handle="bob"`) {
		t.Error("the cached org page does not list bob after he accepted")
	}
	wantCode(t, "a member invites", code(bob.Post("/account/orgs/acme/invite", url.Values{"invite_handle": {"carol"}})), 403)
	wantCode(t, "a member removes an owner", code(bob.Post("/account/orgs/acme/remove", url.Values{"handle": {"alice"}})), 403)
	resp, page = alice.Post("/account/orgs/acme/leave?lang=en", url.Values{})
	if resp.StatusCode != 409 || !strings.Contains(page, "always keeps an owner") {
		t.Errorf("the last owner leaving = %d, want 409 saying why", resp.StatusCode)
	}
	wantCode(t, "alice makes bob owner", code(alice.Post("/account/orgs/acme/owner", url.Values{"handle": {"bob"}})), 200)
	wantCode(t, "alice leaves", code(alice.Post("/account/orgs/acme/leave", url.Values{})), 200)
	if _, public := s.Get(t, "/orgs/acme"); strings.Contains(public, `data-handle="alice"`) {
		t.Error("the org page still lists alice after she left")
	}
	// Declined, an invitation leaves nothing behind.
	wantCode(t, "bob invites carol", code(bob.Post("/account/orgs/acme/invite", url.Values{"invite_handle": {"carol"}})), 200)
	wantCode(t, "carol declines", code(carol.Post("/account/orgs/acme/decline", url.Values{})), 200)
	wantCode(t, "carol's management page after declining", code(carol.Get("/account/orgs/acme")), 404)
	wantCode(t, "carol accepts the declined invitation", code(carol.Post("/account/orgs/acme/accept", url.Values{})), 404)
	// Withdrawn by an owner, an invitation is gone before it is answered.
	wantCode(t, "bob invites carol again", code(bob.Post("/account/orgs/acme/invite", url.Values{"invite_handle": {"carol"}})), 200)
	if _, page := bob.Get("/account/orgs/acme?lang=en"); !strings.Contains(page, `data-action="withdraw"`) ||
		!strings.Contains(page, `aria-label="Withdraw the invitation of @carol"`) {
		t.Error("the owner's page offers no way to withdraw carol's invitation")
	}
	resp, page = bob.Post("/account/orgs/acme/withdraw?lang=en", url.Values{"handle": {"carol"}})
	if resp.StatusCode != 200 || strings.Contains(page, `data-invited="carol"`) || !strings.Contains(page, "The invitation of @carol is withdrawn.") {
		t.Errorf("withdrawing carol's invitation = %d, or she is still pending, or no notice", resp.StatusCode)
	}
	resp, page = bob.Post("/account/orgs/acme/withdraw?lang=en", url.Values{"handle": {"carol"}})
	if resp.StatusCode != 422 || !strings.Contains(page, "@carol has no invitation pending.") {
		t.Errorf("withdrawing it again = %d, want 422 saying why", resp.StatusCode)
	}
	wantCode(t, "carol accepts the withdrawn invitation", code(carol.Post("/account/orgs/acme/accept", url.Values{})), 404)
}

// code is an answer's status alone.
func code(resp *http.Response, _ string) int { return resp.StatusCode }

// wantCode fails unless got is want.
func wantCode(t *testing.T, what string, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}

// TestOrgUploads: a member uploads for the organisation by the form
// ("Upload as") and with an organisation's token; the report, the exports
// and the JSON say so; a non-member can do neither.
func TestOrgUploads(t *testing.T) {
	s := webtest.NewSite(t)
	alice, bob := webtest.NewVisitor(t, s), webtest.NewVisitor(t, s)
	alice.Signup("alice", "alice@example.org", webtest.Password)
	bob.Signup("bob", "bob@example.org", webtest.Password)
	alice.Post("/account/orgs", url.Values{"org_slug": {"acme"}, "org_name": {"Acme Labs"}})

	if _, page := alice.Get("/upload?lang=en"); !strings.Contains(page, `id="as-acme"`) || !strings.Contains(page, `id="as-me"`) {
		t.Error("the upload form does not offer alice to upload as acme")
	}
	if _, page := bob.Get("/upload?lang=en"); strings.Contains(page, `name="as"`) {
		t.Error("the upload form offers bob, a member of nothing, an organisation")
	}
	file := webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	body, ct := webtest.MultipartBody(t, file, "run.json", map[string]string{"as": "acme"})
	if resp, page := bob.Upload(body, ct); resp.StatusCode != 403 {
		t.Errorf("a non-member's upload as acme = %d, want 403: %.200s", resp.StatusCode, page)
	}
	resp, _ := alice.Upload(body, ct)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != 303 || !strings.HasPrefix(loc, "/runs/") {
		t.Fatalf("alice's upload as acme = %d %s", resp.StatusCode, loc)
	}
	doc := orgRunDocOf(t, s, loc)
	if doc.Submitter.Name != "alice" || !doc.Submitter.Verified || doc.Submitter.Org == nil || doc.Submitter.Org.Slug != "acme" || doc.Submitter.Org.Name != "Acme Labs" {
		t.Errorf("the run's submitter = %+v, want alice verified for acme", doc.Submitter)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(loc, "/runs/"), "#share")
	if _, report := s.Get(t, "/runs/"+id+"?lang=en"); !strings.Contains(report, `href="/orgs/acme"`) || !strings.Contains(report, "for Acme Labs") {
		t.Error("the report does not name and link the organisation")
	}
	if _, md := s.Get(t, "/runs/"+id+".md?lang=en"); !strings.Contains(md, "by @alice for Acme Labs · verified submitter") {
		t.Errorf("the Markdown export lacks the byline with the org:\n%.600s", md)
	}
	if _, csv := s.Get(t, "/runs/"+id+".csv?lang=en"); !strings.Contains(csv, ",alice,true,acme,Acme Labs,") {
		t.Errorf("the CSV rows do not carry the organisation's slug and name before the power columns:\n%.400s", csv)
	}
	if _, list := s.Get(t, "/api/v1/runs"); !strings.Contains(list, `"slug": "acme"`) || !strings.Contains(list, `"name": "Acme Labs"`) {
		t.Error("the run list's submitter lacks the org")
	}

	// Tokens: an organisation's token uploads for it; a stranger gets none.
	wantCode(t, "bob's token for acme", code(bob.Post("/account/tokens", url.Values{"org": {"acme"}})), 403)
	resp, page := alice.Post("/account/tokens?lang=en", url.Values{"org": {"acme"}})
	m := webtest.TokenShown.FindStringSubmatch(page)
	if resp.StatusCode != 200 || m == nil || !strings.Contains(page, `id="new-token-for"`) {
		t.Fatalf("alice's token for acme = %d: %.300s", resp.StatusCode, page)
	}
	up, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", m[1], webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_1gpu.json"))
	tokID, _ := out["id"].(string)
	if up.StatusCode != 201 || tokID == "" {
		t.Fatalf("lil-bench with the org token = %d %v", up.StatusCode, out)
	}
	if d := orgRunDocOf(t, s, "/runs/"+tokID); d.Submitter.Org == nil || d.Submitter.Org.Slug != "acme" {
		t.Errorf("the token's run = %+v, want acme's", d.Submitter)
	}
	if _, tokens := alice.Get("/account/tokens?lang=en"); !strings.Contains(tokens, "<td>acme</td>") {
		t.Error("the token list does not say the token uploads for acme")
	}
	_, public := s.Get(t, "/orgs/acme?lang=en")
	for _, run := range []string{id, tokID} {
		if !strings.Contains(public, `data-run="`+run+`"`) {
			t.Errorf("/orgs/acme does not list run %s", run)
		}
	}
}

// TestOrgFormsCrossOrigin: every organisation form refuses a post from
// another site, and nothing changes.
func TestOrgFormsCrossOrigin(t *testing.T) {
	s := webtest.NewSite(t)
	alice, bob := webtest.NewVisitor(t, s), webtest.NewVisitor(t, s)
	alice.Signup("alice", "alice@example.org", webtest.Password)
	bob.Signup("bob", "bob@example.org", webtest.Password)
	alice.Post("/account/orgs", url.Values{"org_slug": {"acme"}, "org_name": {"Acme"}})
	alice.Post("/account/orgs/acme/invite", url.Values{"invite_handle": {"bob"}})
	evil := []string{"Sec-Fetch-Site: cross-site", "Origin: https://evil.example"}
	for _, c := range []struct {
		v    *webtest.Visitor
		path string
		form url.Values
	}{
		{alice, "/account/orgs", url.Values{"org_slug": {"evil"}, "org_name": {"Evil"}}},
		{alice, "/account/orgs/acme/invite", url.Values{"invite_handle": {"carol"}}},
		{alice, "/account/orgs/acme/owner", url.Values{"handle": {"bob"}}},
		{alice, "/account/orgs/acme/remove", url.Values{"handle": {"bob"}}},
		{alice, "/account/orgs/acme/withdraw", url.Values{"handle": {"bob"}}},
		{alice, "/account/orgs/acme/leave", url.Values{}},
		{alice, "/account/tokens", url.Values{"org": {"acme"}}},
		{bob, "/account/orgs/acme/accept", url.Values{}},
		{bob, "/account/orgs/acme/decline", url.Values{}},
	} {
		if resp, _ := c.v.Post(c.path, c.form, evil...); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s from another site = %d, want 403", c.path, resp.StatusCode)
		}
	}
	if resp, _ := s.Get(t, "/orgs/evil"); resp.StatusCode != 404 {
		t.Error("a cross-site post created an organisation")
	}
	if _, page := bob.Get("/account/orgs"); !strings.Contains(page, `data-invite="acme"`) {
		t.Error("a cross-site post answered or withdrew bob's invitation")
	}
	if _, page := alice.Get("/account/tokens"); strings.Contains(page, "data-token=") {
		t.Error("a cross-site post made a token")
	}
}
