package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

// TestResetAndAdminCommands: `account reset` prints a one-time link whose
// secret works and is stored only hashed; `admin grant` makes an admin.
func TestResetAndAdminCommands(t *testing.T) {
	st, dbURL := dbtest.New(t)
	t.Setenv("DATABASE_URL", dbURL)
	t.Setenv("BASE_URL", "https://sm.example")
	ctx := context.Background()
	sh := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if _, err := st.CreateAccount(ctx, "Forgetful", "f@example.com", "$argon2id$x"); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := sh("account", "reset", "nobody"); code != 1 || !strings.Contains(errOut, "no account") {
		t.Errorf("reset of nobody = %d %q", code, errOut)
	}
	code, out, _ := sh("account", "reset", "forgetful")
	link, err := url.Parse(strings.TrimSpace(out))
	if code != 0 || err != nil || link.Host != "sm.example" || link.Path != "/account/reset" {
		t.Fatalf("reset = %d %q", code, out)
	}
	secret := link.Query().Get("token")
	if a, err := st.ResetAccount(ctx, accounts.Hash(secret)); err != nil || a.Handle != "Forgetful" {
		t.Errorf("the printed link does not reset Forgetful: %v %v", a, err)
	}
	if code, out, _ := sh("admin", "grant", "FORGETFUL"); code != 0 || !strings.Contains(out, "admin") {
		t.Errorf("admin grant = %d %q", code, out)
	}
	if a, _ := st.AccountByHandle(ctx, "forgetful"); !a.Admin() {
		t.Error("the account is not an admin after admin grant")
	}
	if code, _, _ := sh("account", "delete", "x"); code != 2 {
		t.Errorf("an unknown subcommand = %d, want 2", code)
	}
}
