package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

// TestAccountCommands runs submitter create, token create and revoke, and
// run hide against a test database, as an operator would.
func TestAccountCommands(t *testing.T) {
	st, url := dbtest.New(t)
	t.Setenv("DATABASE_URL", url)
	t.Setenv("BASE_URL", "https://sm.example")
	ctx := context.Background()
	sh := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if code, out, _ := sh("submitter", "create", "Sandberg", "--org", "lil-lab"); code != 0 || !strings.Contains(out, "https://sm.example/orgs/lil-lab") {
		t.Fatalf("submitter create = %d %q", code, out)
	}
	if code, _, errOut := sh("submitter", "create", "sandberg"); code != 1 || !strings.Contains(errOut, "taken") {
		t.Errorf("a taken handle = %d %q, want 1 and why", code, errOut)
	}
	if code, _, _ := sh("submitter", "create", "no spaces"); code != 2 {
		t.Errorf("a bad handle = %d, want 2", code)
	}
	if code, _, errOut := sh("token", "create", "nobody"); code != 1 || !strings.Contains(errOut, "no submitter") {
		t.Errorf("token for nobody = %d %q", code, errOut)
	}
	code, out, errOut := sh("token", "create", "Sandberg")
	token := strings.TrimSpace(out)
	if code != 0 || !accounts.IsToken(token) || len(token) != 45 {
		t.Fatalf("token create = %d %q, want a lilb_ token of 40 random characters alone on stdout", code, out)
	}
	if strings.Contains(errOut, token) || !strings.Contains(errOut, token[:11]) {
		t.Errorf("stderr = %q: want the prefix, never the token", errOut)
	}
	if h, err := st.TokenSubmitter(ctx, accounts.Hash(token)); h != "Sandberg" || err != nil {
		t.Errorf("the printed token is not Sandberg's: %q %v", h, err)
	}
	_, second, _ := sh("token", "create", "Sandberg")
	second = strings.TrimSpace(second)
	if code, out, _ := sh("token", "revoke", token[:11]); code != 0 || !strings.Contains(out, "revoked") {
		t.Errorf("revoke by prefix = %d %q", code, out)
	}
	if code, _, _ := sh("token", "revoke", second); code != 0 {
		t.Errorf("revoke by token = %d", code)
	}
	for _, tok := range []string{token, second} {
		if _, err := st.TokenSubmitter(ctx, accounts.Hash(tok)); err == nil {
			t.Errorf("token %s… still valid after revoke", tok[:11])
		}
	}
	if code, _, _ := sh("token", "revoke", "lilb_"); code != 2 {
		t.Errorf("revoke with no prefix = %d, want 2", code)
	}

	// run hide: the run is gone for readers, kept in the database.
	good := "../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"
	_, out, _ = sh("import", good)
	id := strings.TrimSpace(out[strings.LastIndex(out, "/")+1:])
	if code, out, _ := sh("run", "hide", id, "a", "test's", "reason"); code != 0 || !strings.Contains(out, "hidden") {
		t.Fatalf("run hide = %d %q", code, out)
	}
	// It is a moderator's hide: logged with its reason, and only an
	// admin's lift undoes it.
	if log, err := st.AuditLog(ctx); err != nil || len(log) == 0 || log[0].Action != "hide_run" || log[0].Target != id ||
		log[0].Reason != "a test's reason" || !strings.HasPrefix(log[0].Actor, "operator") {
		t.Errorf("the audit log after run hide: %+v, %v", log, err)
	}
	if err := st.LiftModeration(ctx, id, "test", "checked"); err != nil {
		t.Errorf("the operator's hide is not a moderation: %v", err)
	}
	if err := st.ModerateHideRun(ctx, id, "test", "hidden again"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetRun(ctx, id); err == nil {
		t.Error("a hidden run still loads")
	}
	if n, _ := st.CountRuns(ctx); n != 1 {
		t.Errorf("%d runs stored after hiding, want the 1 kept", n)
	}
	if code, _, errOut := sh("run", "hide", "nosuchrun"); code != 1 || !strings.Contains(errOut, "no run") {
		t.Errorf("hiding a missing run = %d %q", code, errOut)
	}
}
