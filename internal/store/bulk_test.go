package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// bulkFixture is batchFixture with unverified submitters (the bulk load
// refuses account runs), plus a quick run and a run above the physical
// bound, which never rank.
func bulkFixture() []store.NewRun {
	runs := batchFixture()
	for i := range runs {
		r := *runs[i].Run
		r.SubmitterVerified = false
		runs[i].Run = &r
	}
	quick := *runs[3].Run
	quick.Profile = "quick"
	above := *runs[4].Run
	above.Flags = []string{run.FlagAboveBound}
	return append(runs, store.NewRun{Run: &quick, DedupeKey: "quick", Source: []byte("q")},
		store.NewRun{Run: &above, DedupeKey: "above", Source: []byte("a")})
}

// TestBulkMatchesInsertRun stores the same runs one by one with
// InsertRun and in batches with Bulk.CopyRuns and Bulk.Finish, and wants the
// same answers and identical rows in every table the two write, the
// leaderboard's included.
func TestBulkMatchesInsertRun(t *testing.T) {
	ctx := context.Background()
	single, singleURL := dbtest.New(t)
	bulk, bulkURL := dbtest.New(t)

	var want []store.Inserted
	for _, nr := range bulkFixture() {
		id, created, err := single.InsertRun(ctx, nr.Run, nr.DedupeKey, nr.Source)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, store.Inserted{ID: id, Created: created})
	}
	runs := bulkFixture()
	var got []store.Inserted
	b, err := bulk.NewBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for chunk := range slices.Chunk(runs, 10) {
		res, err := b.CopyRuns(ctx, chunk)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res...)
		// A long load would offer what came so far here; into an empty
		// database it keeps gathering until Finish copies it all.
		if err := b.FinishInBackground(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// A second load of the first runs stores nothing.
	again, err := b.CopyRuns(ctx, bulkFixture()[:30])
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("CopyRuns answered\n%v\nInsertRun\n%v", got, want)
	}
	for i, in := range again {
		if in.Created || in.ID != want[i].ID {
			t.Errorf("a second load answered %v for run %d, want %s not created", in, i, want[i].ID)
		}
	}
	if runs[0].Run.ID != want[0].ID || runs[0].Run.Revision != 1 {
		t.Errorf("CopyRuns left run 0 with id %q revision %d, want %q 1", runs[0].Run.ID, runs[0].Run.Revision, want[0].ID)
	}
	for _, table := range []string{"runs", "run_sources", "decode_cells", "prefill_rows", "run_telemetry",
		"identities", "best_cells", "version_best_cells", "submitter_best_cells", "browse_groups", "identity_runs", "engine_version_runs",
		"history_cells", "history_versions", "history_setups", "unpowered_runs", "plan_ladders"} {
		a, b := storetest.DumpTable(t, singleURL, table), storetest.DumpTable(t, bulkURL, table)
		// The bulk load takes no proven submitter (CopyRuns refuses
		// them), so it leaves submitter_best_cells empty, as InsertRun
		// does for the same runs: equal, and empty.
		switch {
		case table == "submitter_best_cells":
			if len(a) != 0 {
				t.Errorf("%s: %d rows of runs without a proven submitter", table, len(a))
			}
		case len(a) < 4:
			t.Errorf("%s: %d rows; the fixture should fill it", table, len(a))
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s differs: %d rows one by one, %d in bulk; first one-by-one row missing from the bulk load: %v",
				table, len(a), len(b), storetest.FirstMissing(a, b))
		}
	}
	q := store.LeaderQuery{Metric: store.MetricTotal, Concurrency: 1}
	if a, b := storetest.LeaderIDs(t, single, q), storetest.LeaderIDs(t, bulk, q); len(a) == 0 || !slices.Equal(a, b) {
		t.Errorf("leaderboard one by one %v, in bulk %v", a, b)
	}
	wantSameIndexes(t, singleURL, bulkURL)
}

// indexesSQL lists every index and constraint of the schema with its
// definition.
const indexesSQL = `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
WHERE connamespace = current_schema()::regnamespace ORDER BY 1`

// wantSameIndexes: the bulk load into an empty database, which built most
// indexes at its end, left the schema's indexes and constraints as
// migrations made them, and nothing deferred.
func wantSameIndexes(t *testing.T, wantURL, gotURL string) {
	t.Helper()
	list := func(url string) []string {
		conn := storetest.RawConn(t, url)
		return storetest.MustStrings(t, conn, indexesSQL)
	}
	want, got := list(wantURL), list(gotURL)
	if len(want) < 40 || !slices.Equal(want, got) {
		t.Errorf("%d indexes and constraints after the bulk load, %d after migrations; first missing: %v",
			len(got), len(want), storetest.FirstMissing(want, got))
	}
	if n := storetest.MustQueryInt(t, gotURL, `SELECT count(*) FROM bulk_deferred_indexes`); n != 0 {
		t.Errorf("%d indexes still deferred after Close", n)
	}
}

// TestBulkInterruptedBuildsDeferredIndexes: a load into an empty database
// defers its tables' indexes; one that stops before Close leaves them
// listed, and the next load's NewBulk builds them, on a database that now
// has runs, so that one defers nothing.
func TestBulkInterruptedBuildsDeferredIndexes(t *testing.T) {
	ctx := context.Background()
	fresh, freshURL := dbtest.New(t)
	_, wantURL := dbtest.New(t)
	b, err := fresh.NewBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.CopyRuns(ctx, bulkFixture()[:10]); err != nil {
		t.Fatal(err)
	}
	deferred := storetest.MustQueryInt(t, freshURL, `SELECT count(*) FROM bulk_deferred_indexes`)
	if deferred < 10 {
		t.Fatalf("%d indexes deferred by a load into an empty database, want the runs' and cells'", deferred)
	}
	if n := storetest.MustQueryInt(t, freshURL, `SELECT count(*) FROM pg_indexes WHERE indexname = 'decode_cells_pkey'`); n != 0 {
		t.Errorf("decode_cells_pkey kept while deferred")
	}
	// The load stops here (no Finish, no Close); the next one begins.
	next, err := fresh.NewBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := next.CopyRuns(ctx, bulkFixture()); err != nil {
		t.Fatal(err)
	}
	if err := next.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	if err := next.Close(ctx); err != nil {
		t.Fatal(err)
	}
	wantSameIndexes(t, wantURL, freshURL)
}

// TestCopyRunsRefusesAccountRuns: a verified submitter's run belongs to an
// account, which the bulk load does not link.
func TestCopyRunsRefusesAccountRuns(t *testing.T) {
	s, _ := dbtest.New(t)
	r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vllm", run.Valid, 100, 50, 1)
	b, err := s.NewBulk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.CopyRuns(context.Background(), []store.NewRun{{Run: r, DedupeKey: "k"}}); err == nil {
		t.Error("CopyRuns stored a verified submitter's run")
	}
}

// TestBulkOnStoredRuns loads in bulk onto a database that has runs, some of
// them better than the load's and some worse, and one of the load's runs
// stored already, and wants what InsertRun one by one leaves; then
// RebuildBrowse, which derives the same tables again from scratch.
func TestBulkOnStoredRuns(t *testing.T) {
	ctx := context.Background()
	single, singleURL := dbtest.New(t)
	bulk, bulkURL := dbtest.New(t)
	all := bulkFixture()
	for i, nr := range all {
		if _, _, err := single.InsertRun(ctx, nr.Run, nr.DedupeKey, nr.Source); err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if _, _, err := bulk.InsertRun(ctx, bulkFixture()[i].Run, nr.DedupeKey, nr.Source); err != nil {
				t.Fatal(err)
			}
		}
	}
	b, err := bulk.NewBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// In chunks, each offered in the background while the next is
	// copied, as a long load onto stored runs does.
	for chunk := range slices.Chunk(bulkFixture(), 10) {
		if _, err := b.CopyRuns(ctx, chunk); err != nil {
			t.Fatal(err)
		}
		if err := b.FinishInBackground(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	compare := func(when string) {
		for _, table := range []string{"runs", "decode_cells", "identities", "best_cells", "version_best_cells", "submitter_best_cells", "browse_groups", "identity_runs",
			"engine_version_runs", "history_cells", "history_versions", "history_setups", "unpowered_runs", "plan_ladders"} {
			if a, b := storetest.DumpTable(t, singleURL, table), storetest.DumpTable(t, bulkURL, table); !slices.Equal(a, b) {
				t.Errorf("%s: %s differs: %d rows one by one, %d in bulk; first missing: %v",
					when, table, len(a), len(b), storetest.FirstMissing(a, b))
			}
		}
	}
	compare("after Finish")
	if err := bulk.RebuildBrowse(ctx); err != nil {
		t.Fatal(err)
	}
	compare("after RebuildBrowse")
}
