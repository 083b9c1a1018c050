package store_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestConcurrentNewIdentities uploads runs that share identities nobody has
// stored yet, 16 at once, round after round: every upload must go in. Two
// transactions that lock the same new identity, best-cell and group rows in
// different orders deadlock, and PostgreSQL aborts one of them.
func TestConcurrentNewIdentities(t *testing.T) {
	_, dbURL := dbtest.New(t)
	const rounds, writers = 5, 16
	s := storetest.OpenWide(t, dbURL, writers)
	ctx := context.Background()
	for round := range rounds {
		start := make(chan struct{})
		errs := make([]error, writers)
		var wg sync.WaitGroup
		for w := range writers {
			r, key := storetest.RoundRun(round, w), fmt.Sprintf("race %d/%d", round, w)
			wg.Go(func() {
				<-start
				_, _, errs[w] = s.InsertRun(ctx, r, key, []byte(key))
			})
		}
		close(start) // all at once: the first statements of all 16 meet
		wg.Wait()
		for w, err := range errs {
			if err != nil {
				t.Errorf("round %d, writer %d: %v", round, w, err)
			}
		}
	}
	if t.Failed() {
		return
	}
	// Every round is one browse group of 16 runs with a best cell per grid
	// point and metric (48 × 4: the runs measured board power, so tokens
	// per joule ranks too), and its six identities named once each.
	if _, err := s.FoldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	if n := storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM browse_groups WHERE runs = $1`, writers); n != rounds {
		t.Errorf("%d groups of %d runs, want %d", n, writers, rounds)
	}
	if n := storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM best_cells`); n != rounds*48*4 {
		t.Errorf("%d best cells, want %d", n, rounds*48*4)
	}
	if n := storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM identities WHERE slug LIKE '%race%'`); n != rounds*6 {
		t.Errorf("%d identities, want %d", n, rounds*6)
	}
	// The planner's ladders hold every writer's bests: the 16 uploads of a
	// round write bests of one setup at once, each renewing its ladders
	// from what it sees.
	if kept, derived := storetest.DumpTable(t, dbURL, "plan_ladders"), storetest.DumpTable(t, dbURL, storetest.PlanLaddersDerived); len(kept) != rounds || !slices.Equal(kept, derived) {
		t.Errorf("plan_ladders holds %d rows, want %d as derived from best_cells; first kept row not derived: %s",
			len(kept), len(derived), storetest.FirstMissing(kept, derived))
	}
	// The best total tok/s of each point is the last writer's (highest).
	last := storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM best_cells b JOIN runs r ON r.id = b.run_id
WHERE b.metric = 'total_tps' AND r.dedupe_key LIKE $1`, fmt.Sprintf("race %%/%d", writers-1))
	if last != rounds*48 {
		t.Errorf("the last writer holds %d total tok/s bests, want %d", last, rounds*48)
	}
}

// TestRebuildsDuringUploads hides runs and derives runs again (both
// rebuild their group's best cells) while other runs are uploaded to the
// same group: every call must succeed, and the best cells and group counts
// kept current must equal those recomputed from every run afterwards.
func TestRebuildsDuringUploads(t *testing.T) {
	_, dbURL := dbtest.New(t)
	s := storetest.OpenWide(t, dbURL, 16)
	ctx := context.Background()
	const stored, uploaders, uploads, rebuilders = 16, 12, 3, 4
	var ids []string
	for i := range stored {
		ids = append(ids, storetest.MustInsertRun(t, s, storetest.RoundRun(0, i), fmt.Sprintf("stored %d", i)))
	}
	start := make(chan struct{})
	var mu sync.Mutex
	var errs []error
	record := func(err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	var wg sync.WaitGroup
	for w := range uploaders {
		wg.Go(func() {
			<-start
			for i := range uploads {
				r := storetest.RoundRun(0, 100+w*uploads+i)
				_, _, err := s.InsertRun(ctx, r, fmt.Sprintf("upload %d/%d", w, i), nil)
				record(err)
			}
		})
	}
	for w := range rebuilders {
		wg.Go(func() {
			<-start
			for i := w; i < stored; i += rebuilders {
				if w%2 == 0 {
					record(s.HideRun(ctx, ids[i]))
					continue
				}
				r := storetest.RoundRun(0, 200+i) // new numbers, and a cell that is no longer valid
				r.Decode[0].Status = run.Failed
				record(s.ReplaceDerived(ctx, ids[i], r))
			}
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	tables := []string{"best_cells", "version_best_cells", "submitter_best_cells", "browse_groups", "identity_runs", "engine_version_runs",
		"plan_ladders"}
	var kept [][]string
	for _, table := range tables {
		kept = append(kept, storetest.DumpTable(t, dbURL, table))
	}
	if err := store.RebuildAllBest(ctx, s); err != nil {
		t.Fatal(err)
	}
	for i, table := range tables {
		if rebuilt := storetest.DumpTable(t, dbURL, table); !slices.Equal(kept[i], rebuilt) {
			t.Errorf("%s kept current (%d rows) differs from its rebuild (%d rows); first kept row not rebuilt: %s",
				table, len(kept[i]), len(rebuilt), storetest.FirstMissing(kept[i], rebuilt))
		}
	}
}

// TestConcurrentBatchesShareDocuments stores the same documents in batches
// at once, some batches in the reverse order of the others: each batch
// must go in, and each document be created once.
func TestConcurrentBatchesShareDocuments(t *testing.T) {
	_, dbURL := dbtest.New(t)
	const rounds, docs, batches = 4, 40, 4
	s := storetest.OpenWide(t, dbURL, batches)
	ctx := context.Background()
	for round := range rounds {
		start := make(chan struct{})
		created := make([]int, batches)
		errs := make([]error, batches)
		var wg sync.WaitGroup
		for w := range batches {
			var batch []store.NewRun
			for i := range docs {
				key := fmt.Sprintf("shared %d/%d", round, i)
				batch = append(batch, store.NewRun{Run: storetest.RoundRun(round, i), DedupeKey: key, Source: []byte(key)})
			}
			if w%2 == 1 {
				slices.Reverse(batch)
			}
			wg.Go(func() {
				<-start
				res, err := s.InsertRuns(ctx, batch)
				for _, r := range res {
					if r.Created {
						created[w]++
					}
				}
				errs[w] = err
			})
		}
		close(start)
		wg.Wait()
		total := 0
		for w, err := range errs {
			if err != nil {
				t.Errorf("round %d, batch %d: %v", round, w, err)
			}
			total += created[w]
		}
		if !t.Failed() && total != docs {
			t.Errorf("round %d: %d runs created, want %d", round, total, docs)
		}
	}
}
