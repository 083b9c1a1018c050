package ingest

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// storedSeed stores the seed run in a new database and opens a connection
// to it, for the tests to tamper with what is stored.
func storedSeed(t *testing.T) (*store.Store, *pgx.Conn, *Result) {
	t.Helper()
	st, url := dbtest.New(t)
	ctx := context.Background()
	res, err := Ingest(ctx, st, seedUpload(t))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return st, conn, res
}

// TestRederiveStale: a run stored under older rules (here: statuses
// tampered with and an old rules version) is derived again from its source,
// keeps the facts merged at upload, and gets a new revision.
func TestRederiveStale(t *testing.T) {
	ctx := context.Background()
	st, conn, res := storedSeed(t)
	for _, sql := range []string{`UPDATE decode_cells SET status = 'valid', reason = '' WHERE run_id = $1`,
		`UPDATE runs SET rules_version = 'v0' WHERE id = $1`} {
		if _, err := conn.Exec(ctx, sql, res.ID); err != nil {
			t.Fatal(err)
		}
	}
	n, err := RederiveStale(ctx, st)
	if err != nil || n != 1 {
		t.Fatalf("RederiveStale = %d, %v; want 1 run renewed", n, err)
	}
	r, err := st.GetRun(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := Prepare(seedUpload(t), time.Now())
	for i, c := range r.Decode {
		if c.Status != want.Decode[i].Status || c.Reason != want.Decode[i].Reason {
			t.Errorf("cell %d×%d = %s, want %s", c.Context, c.Concurrency, c.Status, want.Decode[i].Status)
		}
	}
	if r.Revision != 2 || r.RulesVersion == "v0" || r.Hardware.GPUName != "RTX 3060" || r.Engine.Version != "0.32.0" {
		t.Errorf("revision %d rules %s hardware %+v engine %+v", r.Revision, r.RulesVersion, r.Hardware, r.Engine)
	}
	if n, err := RederiveStale(ctx, st); err != nil || n != 0 {
		t.Errorf("second RederiveStale = %d, %v; want nothing to do", n, err)
	}
	var statuses []run.Status
	for _, c := range r.Decode {
		statuses = append(statuses, c.Status)
	}
	if len(statuses) != 48 {
		t.Errorf("%d cells after rederiving, want 48", len(statuses))
	}
}

// TestRederiveStaleFlags: a run flagged with older calculator tables is
// checked again, not derived again: while its flags hold it keeps its
// revision and only gets today's bound version; once its stored flags are
// not what today's tables give (here: a flag tampered in), it is derived
// again, with a new revision and the right flags.
func TestRederiveStaleFlags(t *testing.T) {
	ctx := context.Background()
	st, conn, res := storedSeed(t)
	for _, step := range []struct {
		sql      string
		renewed  int
		revision int64
	}{
		{`UPDATE runs SET bound_version = 'older-tables' WHERE id = $1`, 0, 1},
		{`UPDATE runs SET bound_version = 'older-tables', flags = '{power_implausible}', above_bound = true WHERE id = $1`, 1, 2},
	} {
		if _, err := conn.Exec(ctx, step.sql, res.ID); err != nil {
			t.Fatal(err)
		}
		n, err := RederiveStale(ctx, st)
		if err != nil || n != step.renewed {
			t.Fatalf("after %q: RederiveStale = %d, %v; want %d renewed", step.sql, n, err, step.renewed)
		}
		r, err := st.GetRun(ctx, res.ID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Revision != step.revision || r.BoundVersion != calculator.BoundVersion() || len(r.Flags) != 0 {
			t.Errorf("after %q: revision %d (want %d), bound version %q (want %q), flags %v (want none)",
				step.sql, r.Revision, step.revision, r.BoundVersion, calculator.BoundVersion(), r.Flags)
		}
		if n, err := RederiveStale(ctx, st); err != nil || n != 0 {
			t.Errorf("RederiveStale again = %d, %v; want nothing to do", n, err)
		}
	}
}
