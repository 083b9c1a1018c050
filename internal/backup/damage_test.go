package backup_test

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/klauspost/compress/zstd"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/backup"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// small backs up the demo runs and one signed-in account.
func small(t *testing.T, ctx context.Context) []byte {
	t.Helper()
	st, _ := dbtest.New(t)
	_, err := demo.Load(ctx, st)
	must(t, err)
	id, err := st.CreateAccount(ctx, "erin", "erin@example.org", "$argon2id$v=19$m=65536,t=1,p=4$c2FsdA$aGFzaA")
	must(t, err)
	must(t, st.CreateSession(ctx, id, accounts.Hash(secret(t)), time.Now().Add(time.Hour)))
	var buf bytes.Buffer
	_, err = backup.Write(ctx, &buf, st, "test")
	must(t, err)
	return buf.Bytes()
}

// TestRefusesDamaged restores files cut short, damaged or altered, each
// of which must be refused with nothing stored, into one database, and
// then the whole file into it.
func TestRefusesDamaged(t *testing.T) {
	ctx := context.Background()
	file := small(t, ctx)
	flipped := bytes.Clone(file)
	flipped[len(flipped)/2] ^= 0x40
	replace := func(entry, old, new string) []byte {
		return repack(t, file, func(name string, b []byte) ([]byte, bool) {
			if name == entry {
				if !bytes.Contains(b, []byte(old)) {
					t.Fatalf("%s holds no %s", entry, old)
				}
				b = bytes.Replace(b, []byte(old), []byte(new), 1)
			}
			return b, true
		})
	}
	cases := map[string][]byte{
		"cut in half":              file[:len(file)/2],
		"cut before end.json":      repack(t, file, func(name string, b []byte) ([]byte, bool) { return b, name != "end.json" }),
		"a run left out":           repack(t, file, func(name string, b []byte) ([]byte, bool) { return b, name[0] != 'r' }),
		"a flipped byte":           flipped,
		"a row altered":            replace("tables/submitters.jsonl", `"role":""`, `"role":"admin"`),
		"a table unknown":          replace("manifest.json", `"name": "orgs"`, `"name": "shoes"`),
		"a column unknown":         replace("manifest.json", `"slug",`, `"slug", "shoe_size",`),
		"a newer version":          replace("manifest.json", `"version": 2`, `"version": 3`),
		"the counts altered":       replace("end.json", `"sessions": 1`, `"sessions": 2`),
		"a row with a column less": replace("tables/sessions.jsonl", `"created_at"`, `"created"`),
	}
	dst, _ := dbtest.New(t)
	for name, bad := range cases {
		if n, err := backup.Restore(ctx, bytes.NewReader(bad), dst); err == nil {
			t.Errorf("%s: restored %d runs without an error", name, n)
		} else {
			t.Logf("%s: %v", name, err)
		}
		if empty, err := dst.Empty(ctx); !empty || err != nil {
			t.Fatalf("%s: the database is not empty after the refusal (%v)", name, err)
		}
	}
	if n, err := backup.Restore(ctx, bytes.NewReader(file), dst); err != nil || n != 2 {
		t.Errorf("the whole file after the refusals: %d runs, %v", n, err)
	}
}

// failing fails the restore of its second run, as a full disk would.
type failing struct {
	*store.Store
	runs int
}

func (f *failing) RestoreRun(ctx context.Context, r *run.Run, key string, source []byte, hidden bool) error {
	if f.runs++; f.runs == 2 {
		return errors.New("no space left on device")
	}
	return f.Store.RestoreRun(ctx, r, key, source, hidden)
}

// TestUndoesFailedRestore checks that a restore failing part way, after
// the accounts and a run were stored, leaves the database empty, ready
// for the next attempt.
func TestUndoesFailedRestore(t *testing.T) {
	ctx := context.Background()
	file := small(t, ctx)
	dst, dstURL := dbtest.New(t)
	if _, err := backup.Restore(ctx, bytes.NewReader(file), &failing{Store: dst}); err == nil {
		t.Fatal("the failing restore succeeded")
	}
	if empty, err := dst.Empty(ctx); !empty || err != nil {
		t.Fatalf("the database is not empty after the failed restore (%v)", err)
	}
	// history_versions references no run, so no cascade from runs empties
	// it: the first run's version count must be gone all the same.
	conn, err := pgx.Connect(ctx, dstURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var versions int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM history_versions`).Scan(&versions); err != nil || versions != 0 {
		t.Fatalf("%d history_versions rows left after the failed restore (%v)", versions, err)
	}
	if n, err := backup.Restore(ctx, bytes.NewReader(file), dst); err != nil || n != 2 {
		t.Fatalf("the next attempt: %d runs, %v", n, err)
	}
	if _, err := dst.CreateAccount(ctx, "frank", "frank@example.org", "x"); err != nil {
		t.Errorf("a new account after the restore: %v", err)
	}
}

// TestVersion1 restores testdata/v1.tar.zst, written by the code of
// version 1 (the demo runs, submitter veteran of org lab with a token, a
// llama-bench run uploaded with it, a hidden GenAI-Perf run).
func TestVersion1(t *testing.T) {
	ctx := context.Background()
	f, err := os.Open("testdata/v1.tar.zst")
	must(t, err)
	defer f.Close()
	dst, _ := dbtest.New(t)
	if n, err := backup.Restore(ctx, f, dst); err != nil || n != 4 {
		t.Fatalf("version 1: %d runs, %v", n, err)
	}
	if h, err := dst.TokenSubmitter(ctx, accounts.Hash("lilb_v1fixtureTokenV1fixtureTokenV1fixture")); err != nil || h != "veteran" {
		t.Errorf("the version-1 token names %q, %v", h, err)
	}
	a, err := dst.AccountByHandle(ctx, "veteran")
	must(t, err)
	own, err := dst.ListOwnRuns(ctx, a.ID)
	if err != nil || len(own) != 1 || own[0].Hidden {
		t.Errorf("veteran's runs: %+v, %v", own, err)
	}
	if o, err := dst.GetOrg(ctx, "lab"); err != nil || len(o.Members) != 1 {
		t.Errorf("org lab: %+v, %v", o, err)
	}
	var hidden int
	err = dst.EachBackupRun(ctx, func(b store.BackupRun) error {
		if b.Hidden {
			hidden++
		}
		return nil
	})
	if err != nil || hidden != 1 {
		t.Errorf("%d hidden runs, %v", hidden, err)
	}
	if err := dst.CreateSubmitter(ctx, "newcomer", "lab"); err != nil {
		t.Errorf("a new submitter after the restore: %v", err)
	}
	// The file has no skeletons; the restore computes them.
	if err := dst.HandleAvailable(ctx, "vet\u0435ran"); !errors.Is(err, store.ErrLookalike) {
		t.Errorf("a look-alike of veteran (Cyrillic е) after the restore: %v, want ErrLookalike", err)
	}
}

// repack rewrites a backup entry by entry through edit (false drops one).
func repack(t *testing.T, file []byte, edit func(name string, b []byte) ([]byte, bool)) []byte {
	t.Helper()
	zr, err := zstd.NewReader(bytes.NewReader(file))
	must(t, err)
	defer zr.Close()
	var out bytes.Buffer
	zw, err := zstd.NewWriter(&out)
	must(t, err)
	tr, tw := tar.NewReader(zr), tar.NewWriter(zw)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		must(t, err)
		b, err := io.ReadAll(tr)
		must(t, err)
		b, keep := edit(hdr.Name, b)
		if !keep {
			continue
		}
		hdr.Size = int64(len(b))
		must(t, tw.WriteHeader(hdr))
		_, err = tw.Write(b)
		must(t, err)
	}
	must(t, tw.Close())
	must(t, zw.Close())
	return out.Bytes()
}
