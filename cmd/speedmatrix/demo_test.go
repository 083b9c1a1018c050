package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

// TestDemoCommand is `speedmatrix demo --runs N`: N demo runs with their
// cells in the database; a second load of the same seed adds none, another
// seed adds N more.
func TestDemoCommand(t *testing.T) {
	_, url := dbtest.New(t)
	t.Setenv("DATABASE_URL", url)
	ctx := context.Background()
	var stdout, stderr bytes.Buffer
	if code := run(ctx, []string{"demo", "--runs", "30", "--seed", "4"}, &stdout, &stderr); code != 0 {
		t.Fatalf("demo = %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "stored 30 new demo runs") {
		t.Errorf("stdout %q", stdout.String())
	}
	count := func(sql string) int {
		t.Helper()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		var n int
		if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(`SELECT count(*) FROM runs WHERE demo AND dedupe_key LIKE 'demo:4:%'`); n != 30 {
		t.Errorf("%d demo runs stored, want 30", n)
	}
	if n := count(`SELECT count(*) FROM decode_cells c JOIN runs r ON r.id = c.run_id WHERE r.demo`); n < 30*16 {
		t.Errorf("only %d decode cells for 30 runs", n)
	}
	stdout.Reset()
	if code := run(ctx, []string{"demo", "--runs", "30", "--seed", "4"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "stored 0 new") {
		t.Errorf("second load = %d %q, want 0 new runs", code, stdout.String())
	}
	if code := run(ctx, []string{"demo", "--runs", "10", "--seed", "5", "--workers", "2"}, &stdout, &stderr); code != 0 {
		t.Fatalf("seed 5 = %d: %s", code, stderr.String())
	}
	if n := count(`SELECT count(*) FROM runs WHERE demo`); n != 40 {
		t.Errorf("%d demo runs after two seeds, want 40", n)
	}
	if code := run(ctx, []string{"demo", "--runs", "x"}, &stdout, &stderr); code != 2 {
		t.Errorf("bad --runs = %d, want 2", code)
	}
}
