package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// batchFixture is the same list of runs each time it is called (runs are
// changed by storing them): demo runs, runs that tie in one leaderboard
// group, and repeated keys, within a batch and across batches.
func batchFixture() []store.NewRun {
	var out []store.NewRun
	for s := range demo.Generate(11, 60) {
		// Some with a proven submitter, whose cells rank per submitter too.
		s.Run.SubmitterVerified = len(out)%3 == 0
		out = append(out, store.NewRun{Run: s.Run, DedupeKey: s.Key, Source: s.Source})
	}
	for i, v := range []float64{50, 60, 60, 40} {
		r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, v, 100, 3) // same minute: ties
		out = append(out, store.NewRun{Run: r, DedupeKey: fmt.Sprintf("tie-%d", i), Source: []byte("tie")})
	}
	again := *out[5].Run
	again.Submitter = "a second upload of run 5"
	out = slices.Insert(out, 7, store.NewRun{Run: &again, DedupeKey: out[5].DedupeKey, Source: []byte("other")})
	again2 := *out[40].Run
	out = append(out, store.NewRun{Run: &again2, DedupeKey: out[40].DedupeKey})
	return out
}

// TestInsertRunsMatchesInsertRun stores the same runs one by one with
// InsertRun and in batches with InsertRuns, and wants identical rows in
// every table the two write, and the same answers.
func TestInsertRunsMatchesInsertRun(t *testing.T) {
	ctx := context.Background()
	single, singleURL := dbtest.New(t)
	bulk, bulkURL := dbtest.New(t)

	var want []store.Inserted
	for _, nr := range batchFixture() {
		id, created, err := single.InsertRun(ctx, nr.Run, nr.DedupeKey, nr.Source)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, store.Inserted{ID: id, Created: created})
	}
	runs := batchFixture()
	var got []store.Inserted
	for chunk := range slices.Chunk(runs, 25) {
		res, err := bulk.InsertRuns(ctx, chunk)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, res...)
	}
	if !slices.Equal(got, want) {
		t.Errorf("InsertRuns answered\n%v\nInsertRun\n%v", got, want)
	}
	if runs[0].Run.ID != want[0].ID || runs[0].Run.Revision != 1 {
		t.Errorf("InsertRuns left run 0 with id %q revision %d, want %q 1", runs[0].Run.ID, runs[0].Run.Revision, want[0].ID)
	}
	if runs[7].Run.ID != "" {
		t.Errorf("a duplicate in a batch got id %q; it was not stored", runs[7].Run.ID)
	}
	for _, table := range []string{"runs", "run_sources", "decode_cells", "prefill_rows", "run_telemetry",
		"identities", "best_cells", "version_best_cells", "submitter_best_cells", "browse_groups", "identity_runs", "engine_version_runs",
		"history_cells", "history_versions", "history_setups", "unpowered_runs", "plan_ladders"} {
		a, b := storetest.DumpTable(t, singleURL, table), storetest.DumpTable(t, bulkURL, table)
		if len(a) < 4 {
			t.Errorf("%s: %d rows; the fixture should fill it", table, len(a))
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s differs: %d rows one by one, %d in batches; first one-by-one row missing from the batches: %v",
				table, len(a), len(b), storetest.FirstMissing(a, b))
		}
	}
}
