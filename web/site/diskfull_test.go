package site_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// fullTables are the tables an upload writes its bulk to; the test moves
// them to a tablespace on a small file system.
var fullTables = []string{"runs", "run_sources", "decode_cells", "prefill_rows"}

// TestDiskFull fills the file system under the run tables (a tablespace on
// an 8 MiB tmpfs: what a full private cluster's disk does to PostgreSQL)
// and uploads: the answer is 507 with a message saying nothing was stored,
// no row was written, reads keep answering 200, and once space is freed
// uploads work again without a restart. It needs root (mount) and a
// PostgreSQL server on this machine (the tablespace's directory).
func TestDiskFull(t *testing.T) {
	dir := smallDisk(t)
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, s.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) }) // after the tablespace's cleanup
	moveToSmallDisk(t, conn, dir)
	filler := fillDisk(t, dir)

	body := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	before := s.RowCounts(t)
	var resp *http.Response
	var out map[string]any
	for i := 0; i < 20; i++ { // the first may fit in a page's free space
		resp, out = s.Post(t, "application/json", webtest.UniqueDoc(t, body, i))
		if resp.StatusCode != http.StatusCreated {
			break
		}
		before = s.RowCounts(t)
	}
	if resp.StatusCode != http.StatusInsufficientStorage {
		t.Fatalf("upload on a full disk = %d %v, want 507", resp.StatusCode, out)
	}
	if msg, _ := out["error"].(string); !strings.Contains(msg, "nothing was stored") {
		t.Errorf("507 says %q", msg)
	}
	if after := s.RowCounts(t); after != before {
		t.Errorf("a refused upload changed rows: %s → %s", before, after)
	}
	for _, path := range []string{"/runs/" + seed, "/runs/" + seed + ".json", "/api/v1/runs", "/leaderboard"} {
		if r, _ := s.Get(t, path); r.StatusCode != http.StatusOK {
			t.Errorf("%s on a full disk = %d, want 200", path, r.StatusCode)
		}
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if resp, out := s.Post(t, "application/json", webtest.UniqueDoc(t, body, 99)); resp.StatusCode != http.StatusCreated {
		t.Errorf("upload after space was freed = %d %v, want 201", resp.StatusCode, out)
	}
}

// smallDisk mounts an 8 MiB tmpfs the database server's user may write.
func smallDisk(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "sm-full-")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m,mode=0700", "tmpfs", dir).CombinedOutput(); err != nil {
		os.Remove(dir)
		// Mounting is a privilege of the machine, not a service the test
		// suite provides (as PostgreSQL and Chromium are): a container
		// without CAP_SYS_ADMIN cannot run this test at all, CI or not.
		t.Skipf("mounting a small tmpfs needs root with CAP_SYS_ADMIN: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
		os.Remove(dir)
	})
	if u, err := user.Lookup("postgres"); err == nil && os.Geteuid() == 0 {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// mustHave skips, or fails under CI, when the machine cannot run a test.
func mustHave(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why + " (CI is set, so this fails)")
	}
	t.Skip(why)
}

// moveToSmallDisk creates a tablespace in dir and moves the run tables
// there; they move back and it is dropped when the test ends, before the
// database and the mount go.
func moveToSmallDisk(t *testing.T, conn *pgx.Conn, dir string) {
	t.Helper()
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	ts := pgx.Identifier{"sm_full_" + hex.EncodeToString(b)}.Sanitize()
	if _, err := conn.Exec(ctx, "CREATE TABLESPACE "+ts+" LOCATION '"+dir+"'"); err != nil {
		mustHave(t, fmt.Sprintf("a tablespace in %s needs the database server on this machine: %v", dir, err))
	}
	move := func(to string) error {
		for _, table := range fullTables {
			if _, err := conn.Exec(ctx, "ALTER TABLE "+table+" SET TABLESPACE "+to); err != nil {
				return err
			}
		}
		return nil
	}
	t.Cleanup(func() {
		err := errors.Join(move("pg_default"))
		if _, e := conn.Exec(ctx, "DROP TABLESPACE "+ts); e != nil {
			err = errors.Join(err, e)
		}
		if err != nil {
			t.Errorf("tablespace %s: %v", ts, err)
		}
	})
	if err := move(ts); err != nil {
		t.Fatal(err)
	}
}

// fillDisk writes a file over every free byte of dir's file system and
// returns its name.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				return name
			}
			t.Fatal(err)
		}
	}
}
