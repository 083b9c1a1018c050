package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// gridRun is a run of one setup with a cell at each of cells grid points
// and a prefill row at each of prefill contexts, statuses and numbers drawn
// from rng so that the runs of a set beat each other's bests here and there.
func gridRun(rng *rand.Rand, cells, prefill, minute int) *run.Run {
	r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, 0, 10, minute)
	r.SubmitterVerified = false // the bulk load refuses account runs
	r.Decode = nil
	for k := range cells {
		st := []run.Status{run.Valid, run.Valid, run.Queued, run.Failed}[rng.IntN(4)]
		c := run.DecodeCell{Context: 1024 * (k / 8), Concurrency: 1 << (k % 8), Status: st, Measured: true,
			Metrics: run.Metrics{TotalTPS: f(float64(1 + rng.IntN(50))), PerRequestTPS: f(float64(1 + rng.IntN(50))),
				TTFTms: f(float64(1 + rng.IntN(50)))}}
		if rng.IntN(5) == 0 {
			c.Metrics.PerRequestTPS = nil // a metric not measured offers nothing
		}
		r.Decode = append(r.Decode, c)
	}
	for k := range prefill {
		r.Prefill = append(r.Prefill, run.PrefillRow{Context: 1024 * (k + 1), Status: run.Valid, Measured: true,
			PromptTPS: f(float64(1 + rng.IntN(1000)))})
	}
	return r
}

// TestLargeRunsMatchBulk stores runs of one setup, some with few cells and
// some with more than the upload's statements read by subscript (256 rows:
// 300 cells, or 100 cells and so up to 300 offers of bests), one by one with
// InsertRun and in one batch with the bulk loader, whose statements read
// every array by unnest, and wants identical cells and bests: the upload's
// subscript and unnest texts store the same rows.
func TestLargeRunsMatchBulk(t *testing.T) {
	ctx := context.Background()
	single, singleURL := dbtest.New(t)
	bulk, bulkURL := dbtest.New(t)
	fixture := func() []store.NewRun {
		rng := rand.New(rand.NewPCG(7, 9))
		var out []store.NewRun
		for i, size := range [][2]int{{48, 5}, {300, 260}, {100, 3}, {20, 1}, {300, 2}, {90, 0}} {
			out = append(out, store.NewRun{Run: gridRun(rng, size[0], size[1], i),
				DedupeKey: fmt.Sprintf("grid-%d", i), Source: []byte("grid")})
		}
		return out
	}
	for _, nr := range fixture() {
		if _, _, err := single.InsertRun(ctx, nr.Run, nr.DedupeKey, nr.Source); err != nil {
			t.Fatal(err)
		}
	}
	b, err := bulk.NewBulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.CopyRuns(ctx, fixture()); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"decode_cells", "prefill_rows", "best_cells", "version_best_cells", "submitter_best_cells"} {
		a, b := storetest.DumpTable(t, singleURL, table), storetest.DumpTable(t, bulkURL, table)
		// No proven submitter in a bulk load: that table stays empty.
		switch {
		case table == "submitter_best_cells":
			if len(a) != 0 {
				t.Errorf("%s: %d rows of runs without a proven submitter", table, len(a))
			}
		case len(a) < 200:
			t.Errorf("%s: %d rows; the fixture should fill it", table, len(a))
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s differs: %d rows one by one, %d in bulk; first one-by-one row missing from the bulk load: %v",
				table, len(a), len(b), storetest.FirstMissing(a, b))
		}
	}
}
