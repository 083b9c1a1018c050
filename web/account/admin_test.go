package account_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestModeration: only admins open the audit log; an admin hides any run
// and suspends an account (signed out, tokens refused, sign-in refused),
// each act logged with who, what, on what, when and why.
func TestModeration(t *testing.T) {
	s := webtest.NewSite(t)
	if resp, _ := webtest.NewVisitor(t, s).Get("/admin/audit"); resp.StatusCode != 303 {
		t.Errorf("/admin/audit signed out = %d, want 303 to sign in", resp.StatusCode)
	}
	user := webtest.NewVisitor(t, s)
	user.Signup("uploader", "u@example.com", webtest.Password)
	tok := user.CreateToken()
	_, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"))
	id := out["id"].(string)
	if resp, _ := user.Get("/admin/audit"); resp.StatusCode != 403 {
		t.Errorf("/admin/audit for a non-admin = %d, want 403", resp.StatusCode)
	}
	if resp, _ := user.Post("/admin/suspend", url.Values{"target": {"uploader"}, "reason": {"x"}}); resp.StatusCode != 403 {
		t.Errorf("a non-admin suspending = %d, want 403", resp.StatusCode)
	}
	mod := webtest.NewVisitor(t, s)
	mod.Signup("moderator", "mod@example.com", webtest.Password)
	if err := s.Store.GrantAdmin(context.Background(), "moderator", "operator (test)"); err != nil {
		t.Fatal(err)
	}
	if resp, _ := mod.Post("/admin/hide-run", url.Values{"target": {id}}); resp.StatusCode != 422 {
		t.Errorf("hiding without a reason = %d, want 422", resp.StatusCode)
	}
	if resp, _ := mod.Post("/admin/hide-run", url.Values{"target": {id}, "reason": {"duplicate of another run"}}); resp.StatusCode != 200 {
		t.Errorf("hide = %d", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 404 {
		t.Errorf("the moderated run = %d, want 404", resp.StatusCode)
	}
	if resp, _ := mod.Post("/admin/suspend", url.Values{"target": {"UPLOADER"}, "reason": {"spam uploads"}}); resp.StatusCode != 200 {
		t.Errorf("suspend = %d", resp.StatusCode)
	}
	if resp, _ := user.Get("/account"); resp.StatusCode != 303 {
		t.Errorf("the suspended account is still signed in (%d)", resp.StatusCode)
	}
	if resp, _ := webtest.LilBench(t, s, "GET", "/api/bench/whoami", tok, nil); resp.StatusCode != 403 {
		t.Errorf("the suspended account's token = %d, want 403", resp.StatusCode)
	}
	if resp := webtest.NewVisitor(t, s).Login("u@example.com", webtest.Password, "/"); resp.StatusCode != 403 {
		t.Errorf("the suspended account signing in = %d, want 403", resp.StatusCode)
	}
	_, page := mod.Get("/admin/audit?lang=en")
	for _, want := range []string{"moderator", "Hid a run", id, "duplicate of another run", "Suspended an account", "UPLOADER",
		"spam uploads", "Made an admin", "operator (test)", " UTC"} {
		if !strings.Contains(page, want) {
			t.Errorf("the audit log lacks %q", want)
		}
	}
}
