package store_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestRunIDs(t *testing.T) {
	// Ids are in URLs that must stay valid: the derivation may not change.
	short, long := store.RunIDs("abc")
	if short != "xj4bnp4pah" || long != "xj4bnp4pahh6uqkb" {
		t.Errorf("RunIDs(abc) = %q, %q; want xj4bnp4pah, xj4bnp4pahh6uqkb", short, long)
	}
	if ok, _ := regexp.MatchString(`^[a-z2-7]{10}$`, short); !ok {
		t.Errorf("short id %q is not 10 lowercase base32 characters", short)
	}
}

func TestDedupe(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	id1 := storetest.MustInsertRun(t, s, storetest.FullRun(), "same")
	r2 := storetest.FullRun()
	r2.Submitter = "someone else"
	id2, created, err := s.InsertRun(ctx, r2, "same", []byte("other bytes"))
	if err != nil || created || id2 != id1 {
		t.Fatalf("second InsertRun = %q, %v, %v; want %q, false, nil", id2, created, err, id1)
	}
	if r2.ID != "" {
		t.Errorf("a duplicate insert set r.ID = %q; the run passed in was not stored", r2.ID)
	}
	want := map[string]int64{"runs": 1, "run_sources": 1, "decode_cells": 4, "prefill_rows": 3, "run_telemetry": 1}
	if got := tableCounts(t, url); !maps.Equal(got, want) {
		t.Errorf("rows after a duplicate insert = %v, want %v", got, want)
	}
	body, _, err := s.GetSource(ctx, id1)
	if err != nil || string(body) != "source of same" {
		t.Errorf("GetSource = %q, %v; want the first upload's bytes", body, err)
	}
}

func TestConcurrentInsertSameKey(t *testing.T) {
	s, url := dbtest.New(t)
	const n = 8
	var (
		wg      sync.WaitGroup
		ids     [n]string
		created [n]bool
		errs    [n]error
	)
	for g := range n {
		wg.Go(func() {
			ids[g], created[g], errs[g] = s.InsertRun(context.Background(), storetest.SeedRun(), "raced", []byte("x"))
		})
	}
	wg.Wait()
	creators := 0
	for g := range n {
		if errs[g] != nil {
			t.Fatalf("goroutine %d: %v", g, errs[g])
		}
		if ids[g] != ids[0] {
			t.Errorf("goroutine %d got id %q, goroutine 0 %q", g, ids[g], ids[0])
		}
		if created[g] {
			creators++
		}
	}
	if creators != 1 {
		t.Errorf("%d goroutines created the run, want 1", creators)
	}
	want := map[string]int64{"runs": 1, "run_sources": 1, "decode_cells": 48, "prefill_rows": 5, "run_telemetry": 1}
	if got := tableCounts(t, url); !maps.Equal(got, want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
}

func TestIDCollision(t *testing.T) {
	s, url := dbtest.New(t)
	short, long := store.RunIDs("victim")
	// Another key already holds the short id.
	storetest.MustExec(t, url, `INSERT INTO runs (id, dedupe_key, provenance) VALUES ('`+short+`', 'squatter', 'measured')`)
	id := storetest.MustInsertRun(t, s, storetest.FullRun(), "victim")
	if id != long {
		t.Fatalf("id = %q, want the long id %q", id, long)
	}
	again, created, err := s.InsertRun(context.Background(), storetest.FullRun(), "victim", nil)
	if err != nil || created || again != long {
		t.Errorf("re-insert = %q, %v, %v; want %q, false, nil", again, created, err, long)
	}
}

func TestFailedInsertLeavesNothing(t *testing.T) {
	s, url := dbtest.New(t)
	storetest.MustInsertRun(t, s, storetest.FullRun(), "before")
	before := tableCounts(t, url)

	r := storetest.SeedRun()
	r.Decode[len(r.Decode)-1].Status = "bogus" // the very last row written
	_, _, err := s.InsertRun(context.Background(), r, "broken", []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "decode_cells_status_check") {
		t.Fatalf("InsertRun with a bogus status: err = %v, want the status check violation", err)
	}
	if !strings.HasPrefix(err.Error(), `InsertRun("broken")`) {
		t.Errorf("error %q does not start with the operation", err)
	}
	if r.ID != "" {
		t.Errorf("failed insert set r.ID = %q", r.ID)
	}
	if after := tableCounts(t, url); !maps.Equal(after, before) {
		t.Errorf("rows after a failed insert = %v, before %v", after, before)
	}
	// The failed transaction is rolled back, not left open on a pooled
	// connection: the next inserts on every connection go in.
	for i := range 6 {
		storetest.MustInsertRun(t, s, storetest.FullRun(), fmt.Sprintf("after-%d", i))
	}
}

// TestInsertRunNumbers checks that the headline numbers an insert writes
// with the row are what the rebuild computes from the stored cells
// (runNumbersSet), for runs with and without a valid single-stream cell.
func TestInsertRunNumbers(t *testing.T) {
	s, url := dbtest.New(t)
	noSingle := storetest.SeedRun()
	for i := range noSingle.Decode {
		if noSingle.Decode[i].Concurrency == 1 {
			noSingle.Decode[i].Status = run.Failed
		}
	}
	for key, r := range map[string]*run.Run{"seed": storetest.SeedRun(), "full": storetest.FullRun(), "no single": noSingle} {
		id := storetest.MustInsertRun(t, s, r, key)
		same := storetest.MustQueryInt(t, url, `SELECT count(*) FROM runs r WHERE id = $1
    AND best_peak_tps IS NOT DISTINCT FROM (SELECT max(c.total_tps) FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid')
    AND best_single_tps IS NOT DISTINCT FROM (SELECT c.total_tps FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid' AND c.concurrency = 1
        ORDER BY c.context LIMIT 1)`, id)
		if same != 1 {
			t.Errorf("%s: the numbers stored with the row differ from those of its cells", key)
		}
	}
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM runs WHERE best_single_tps IS NULL`); n != 1 {
		t.Errorf("%d runs without a single-stream number, want 1 (the one without a valid cell)", n)
	}
}

func TestTransactRollsBackOnPanic(t *testing.T) {
	s, url := dbtest.New(t)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("transact swallowed the panic")
			}
		}()
		_ = store.Transact(context.Background(), s, func(tx pgx.Tx) error {
			_, err := tx.Exec(context.Background(),
				`INSERT INTO runs (id, dedupe_key, provenance) VALUES ('p', 'p', 'measured')`)
			if err != nil {
				t.Fatal(err)
			}
			panic("boom")
		})
	}()
	if n := storetest.MustQueryInt(t, url, "SELECT count(*) FROM runs"); n != 0 {
		t.Errorf("%d runs after a panicking transaction, want 0", n)
	}
}

func TestNotFound(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	r, err := s.GetRun(ctx, "nosuchid")
	if !errors.Is(err, store.ErrNotFound) || r != nil {
		t.Errorf("GetRun = %v, %v; want nil, ErrNotFound", r, err)
	}
	if err != nil && !strings.Contains(err.Error(), `GetRun("nosuchid")`) {
		t.Errorf("error %q does not name the operation", err)
	}
	if _, _, err := s.GetSource(ctx, "nosuchid"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("GetSource: %v, want ErrNotFound", err)
	}
	if _, err := s.RunRevision(ctx, "nosuchid"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("RunRevision: %v, want ErrNotFound", err)
	}
}
