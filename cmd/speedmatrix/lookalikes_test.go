package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

// TestLookalikesCommand: names that looked alike before they were compared
// by skeleton (stored here as an older build could) are listed, a group a
// line, and left as they are; the operator's own submitter command refuses
// a new one.
func TestLookalikesCommand(t *testing.T) {
	_, url := dbtest.New(t)
	t.Setenv("DATABASE_URL", url)
	ctx := context.Background()
	sh := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(ctx, args, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	if code, out, _ := sh("account", "lookalikes"); code != 0 || out != "" {
		t.Errorf("lookalikes of an empty site = %d %q, want 0 and nothing", code, out)
	}
	if code, _, _ := sh("submitter", "create", "alice"); code != 0 {
		t.Fatal("submitter create alice failed")
	}
	if code, _, errOut := sh("submitter", "create", "a1ice"); code != 1 || !strings.Contains(errOut, "looks like") {
		t.Errorf("submitter create a1ice = %d %q, want 1 saying it looks like a name in use", code, errOut)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO submitters (handle) VALUES ($1)`, "\u0430lice") // no skeleton yet
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := sh("account", "lookalikes") // a command opens the database: the fill runs first
	if want := "handle:alice handle:\u0430lice\n"; code != 0 || out != want || !strings.Contains(errOut, "look alike: 1") {
		t.Errorf("lookalikes = %d %q %q, want 0 and %q", code, out, errOut, want)
	}
}
