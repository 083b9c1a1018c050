package account_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestModerationOwnerCannotShow: a run an admin hid as spam stays hidden
// when its owner asks to show it (refused with a localized reason), is
// absent from every list, the API, the sitemap and the leaderboard, and
// the owner's list says the moderators hid it, why, with no Show. Only an
// admin's lift makes it public again; the audit log has both acts with
// who, when and why.
func TestModerationOwnerCannotShow(t *testing.T) {
	s := webtest.NewSite(t)
	owner := webtest.NewVisitor(t, s)
	owner.Signup("spammer", "spam@example.com", webtest.Password)
	body, ct := webtest.MultipartBody(t, webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"), "run.json", nil)
	resp, _ := owner.Upload(body, ct)
	id := strings.TrimSuffix(strings.TrimPrefix(resp.Header.Get("Location"), "/runs/"), "#share")
	if resp.StatusCode != 303 || id == "" {
		t.Fatalf("upload = %d", resp.StatusCode)
	}
	mod := webtest.NewVisitor(t, s)
	mod.Signup("moderator", "mod@example.com", webtest.Password)
	if err := s.Store.GrantAdmin(context.Background(), "moderator", "operator (test)"); err != nil {
		t.Fatal(err)
	}
	// Where a public run shows; each must list it first, or its absence
	// later would prove nothing.
	public := []string{"/runs", "/api/v1/runs", "/sitemap.xml", "/leaderboard"}
	listed := func(path string) bool {
		t.Helper()
		resp, page := s.Get(t, path)
		if resp.StatusCode != 200 {
			t.Fatalf("%s = %d", path, resp.StatusCode)
		}
		return strings.Contains(page, "/runs/"+id)
	}
	for _, path := range public {
		if !listed(path) {
			t.Fatalf("%s does not list the run before it is hidden", path)
		}
	}

	const reason = "spam: the same numbers under forty names"
	if resp, _ := mod.Post("/admin/hide-run", url.Values{"target": {id}, "reason": {reason}}); resp.StatusCode != 200 {
		t.Fatalf("hide = %d", resp.StatusCode)
	}
	resp, page := owner.Post("/account/runs/"+id+"/show?lang=en", url.Values{})
	if resp.StatusCode != 403 || !strings.Contains(page, "only they can show it again") {
		t.Errorf("the owner showing a moderated run = %d, want 403 saying why", resp.StatusCode)
	}
	if resp, _ := owner.Post("/account/runs/"+id+"/show?lang=de", url.Values{}); resp.StatusCode != 403 {
		t.Errorf("the owner showing it again in German = %d, want 403", resp.StatusCode)
	}
	for _, path := range []string{"/runs/" + id, "/runs/" + id + ".json", "/api/v1/runs/" + id} {
		if resp, _ := s.Get(t, path); resp.StatusCode != 404 {
			t.Errorf("%s after the owner's show = %d, want 404", path, resp.StatusCode)
		}
	}
	for _, path := range public {
		if listed(path) {
			t.Errorf("%s lists the moderated run after its owner's show", path)
		}
	}

	// The owner's list: the moderators' words and reason, no Show; the
	// words are the owner's language's.
	_, mine := owner.Get("/account/runs?lang=en")
	d, err := goquery.NewDocumentFromReader(strings.NewReader(mine))
	if err != nil {
		t.Fatal(err)
	}
	row := d.Find(`li[data-run="` + id + `"]`)
	if row.Length() != 1 {
		t.Fatalf("/account/runs does not list the moderated run")
	}
	if v, _ := row.Attr("data-moderated"); v != "true" {
		t.Errorf("data-moderated = %q", v)
	}
	if text := row.Text(); !strings.Contains(text, "hidden by the moderators") || !strings.Contains(text, reason) {
		t.Errorf("the row does not say the moderators hid it and why: %q", strings.Join(strings.Fields(text), " "))
	}
	if row.Find(`[data-action="show"], form[action$="/show"]`).Length() != 0 {
		t.Error("the moderated run has a Show button")
	}
	_, fr := owner.Get("/account/runs?lang=fr")
	if !strings.Contains(fr, "masquée par les modérateurs") {
		t.Error("the French list does not say the moderators hid it")
	}

	// Only an admin lifts it; the owner cannot, and lifting twice is a
	// refusal, not a second line in the log.
	if resp, _ := owner.Post("/admin/unhide-run", url.Values{"target": {id}, "reason": {"mine"}}); resp.StatusCode != 403 {
		t.Errorf("the owner lifting = %d, want 403", resp.StatusCode)
	}
	if resp, _ := mod.Post("/admin/unhide-run", url.Values{"target": {id}}); resp.StatusCode != 422 {
		t.Errorf("lifting without a reason = %d, want 422", resp.StatusCode)
	}
	const why = "appeal upheld: a real benchmark"
	if resp, _ := mod.Post("/admin/unhide-run", url.Values{"target": {id}, "reason": {why}}); resp.StatusCode != 200 {
		t.Fatalf("lift = %d", resp.StatusCode)
	}
	if resp, _ := mod.Post("/admin/unhide-run", url.Values{"target": {id}, "reason": {why}}); resp.StatusCode != 409 {
		t.Errorf("lifting a run no moderator hides = %d, want 409", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 200 {
		t.Errorf("the lifted run = %d, want 200", resp.StatusCode)
	}
	for _, path := range public {
		if !listed(path) {
			t.Errorf("%s does not list the lifted run", path)
		}
	}
	_, audit := mod.Get("/admin/audit?lang=en")
	d, err = goquery.NewDocumentFromReader(strings.NewReader(audit))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	d.Find("table.audit tbody tr").Each(func(_ int, tr *goquery.Selection) {
		if strings.Contains(tr.Text(), id) {
			lines = append(lines, strings.Join(strings.Fields(tr.Text()), " "))
		}
	})
	if len(lines) != 2 {
		t.Fatalf("the audit log has %d lines on the run, want the hide and the lift: %q", len(lines), lines)
	}
	for i, want := range [][]string{{"moderator", "Lifted the hide of a run", why, " UTC"}, {"moderator", "Hid a run", reason, " UTC"}} {
		for _, w := range want {
			if !strings.Contains(lines[i]+" ", w) {
				t.Errorf("audit line %q lacks %q", lines[i], w)
			}
		}
	}
}
