package localpg_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/localpg"
)

// start starts a cluster in dir and stops it when the test ends. Without
// server binaries it skips, unless CI is set.
func start(t *testing.T, dir string) *localpg.Cluster {
	t.Helper()
	c, err := localpg.Start(context.Background(), dir, localpg.Options{Logf: t.Logf})
	if err != nil {
		if strings.Contains(err.Error(), "no PostgreSQL server binaries") && os.Getenv("CI") == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Stop(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return c
}

// shortTempDir returns an empty data folder. Not t.TempDir: its parent is
// private to the test's user, so a server run as postgres could not reach it.
func shortTempDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "lpg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func exec(t *testing.T, url, sql string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, url string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM kept").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestStartStopRestart(t *testing.T) {
	dir := shortTempDir(t)
	c := start(t, dir)
	if !strings.HasSuffix(c.URL(), "/speedmatrix?sslmode=disable") || !strings.HasSuffix(c.AdminURL(), "/postgres?sslmode=disable") {
		t.Errorf("URL() = %s, AdminURL() = %s", c.URL(), c.AdminURL())
	}
	exec(t, c.URL(), "CREATE TABLE kept (x int); INSERT INTO kept VALUES (1)")
	if err := c.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	if conn, err := pgx.Connect(context.Background(), c.URL()); err == nil {
		conn.Close(context.Background())
		t.Fatal("server still answers after Stop")
	}
	c = start(t, dir)
	if n := count(t, c.URL()); n != 1 {
		t.Errorf("after a restart the table holds %d rows, want 1", n)
	}
	// A second Start on a running cluster adopts it.
	c2 := start(t, dir)
	if c2.Port() != c.Port() {
		t.Errorf("second Start: port %d, want the running server's %d", c2.Port(), c.Port())
	}
}

// TestStartAfterKill starts a cluster whose server was killed with SIGKILL,
// leaving postmaster.pid and possibly live children behind.
func TestStartAfterKill(t *testing.T) {
	dir := shortTempDir(t)
	c := start(t, dir)
	exec(t, c.URL(), "CREATE TABLE kept (x int); INSERT INTO kept VALUES (1), (2)")
	b, err := os.ReadFile(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("postmaster %d still alive 10 s after SIGKILL", pid)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "postmaster.pid")); err != nil {
		t.Fatalf("the killed server left no postmaster.pid, so this test tests nothing: %v", err)
	}
	c = start(t, dir)
	if n := count(t, c.URL()); n != 2 {
		t.Errorf("after crash recovery the table holds %d rows, want 2", n)
	}
}

// TestParentNotTraversable: as root the server runs as the postgres user,
// who cannot reach a data folder under a root-only parent, and Start says
// which folder is in the way. Run as another user the server is that user,
// so the same private parent is fine: that is checked instead of skipped.
func TestParentNotTraversable(t *testing.T) {
	parent, err := os.MkdirTemp("", "lpg") // mode 0700, owned by whoever runs the test
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) }) // after the cluster stops
	if os.Geteuid() != 0 {
		start(t, filepath.Join(parent, "data"))
		return
	}
	_, err = localpg.Start(context.Background(), filepath.Join(parent, "data"), localpg.Options{})
	if err == nil || !strings.Contains(err.Error(), parent) {
		t.Errorf("Start under a private folder: %v, want an error naming %s", err, parent)
	}
}
