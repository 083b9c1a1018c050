package bests_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestCountsExactUnderConcurrentUploads uploads runs of one setup from
// several writers while the counts are folded over and over, and has each
// writer read its setup's counts after every upload: a count must include
// every upload answered before the read began and none not begun by its
// end (a fold that lost deltas, or a reader that saw them both folded and
// pending, fails it). At the end the counts are the runs, folded or not,
// and what a rebuild derives.
func TestCountsExactUnderConcurrentUploads(t *testing.T) {
	_, dbURL := dbtest.New(t)
	const writers, each = 4, 8
	s := storetest.OpenWide(t, dbURL, writers+2)
	ctx := context.Background()
	var started, done atomic.Int64
	stopFolding := foldOverAndOver(ctx, s)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, float64(100+w*each+i), 100, i)
				started.Add(1)
				if _, _, err := s.InsertRun(ctx, r, fmt.Sprintf("w%d/%d", w, i), nil); err != nil {
					t.Error(err)
					return
				}
				done.Add(1)
				low := done.Load()
				n, err := hardwareRuns(ctx, s, "rtx-4090-24gb")
				if high := started.Load(); err != nil || n < low || n > high {
					t.Errorf("writer %d, upload %d: %d runs counted (%v), want %d to %d", w, i, n, err, low, high)
				}
			}
		})
	}
	wg.Wait()
	if err := stopFolding(); err != nil {
		t.Fatal(err)
	}
	wantIdentityCounts(t, s, "all stored", map[string]int64{"rtx-4090-24gb": writers * each}, writers*each)
	tables := []string{"browse_groups", "identity_runs", "engine_version_runs"}
	var kept [][]string
	for _, table := range tables {
		kept = append(kept, storetest.DumpTable(t, dbURL, table))
	}
	if err := bests.RebuildAllBest(ctx, s.Bests); err != nil {
		t.Fatal(err)
	}
	for i, table := range tables {
		if rebuilt := storetest.DumpTable(t, dbURL, table); strings.Join(rebuilt, "\n") != strings.Join(kept[i], "\n") {
			t.Errorf("%s kept:\n%v\nrebuilt:\n%v", table, kept[i], rebuilt)
		}
	}
}

// hardwareRuns is the runs counted for a hardware, by CountIdentities.
func hardwareRuns(ctx context.Context, s *store.Store, slug string) (int64, error) {
	listed, err := s.CountIdentities(ctx, bests.KindHardware)
	for _, c := range listed {
		if c.Slug == slug {
			return c.Runs, err
		}
	}
	return 0, err
}

// TestIdentityCountsReadBoundedRows runs the statements of CountIdentities
// and EngineVersions with EXPLAIN ANALYZE on a database of many browse
// groups (2,000 of one engine) and wants them to read none of
// browse_groups or runs, only the counts kept per identity (one row per
// identity or version) and the deltas not folded yet: what they read does
// not grow with runs or groups.
func TestIdentityCountsReadBoundedRows(t *testing.T) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	// 2,000 groups: 10 hardware × 200 models, one engine at 4 versions.
	if _, err := conn.Exec(ctx, `
INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT 'model-' || m, 'base-' || m, 'hw-' || h, 'vllm', '0.' || (m % 4), 'fp8', 3
FROM generate_series(1, 10) h, generate_series(1, 200) m`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `
INSERT INTO identity_runs (kind, slug, base, runs)
SELECT 'hardware', 'hw-' || h, '', 600 FROM generate_series(1, 10) h;
INSERT INTO engine_version_runs (engine_slug, engine_version, runs) SELECT 'vllm', '0.' || v, 1500 FROM generate_series(0, 3) v;
INSERT INTO browse_count_deltas (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
VALUES ('model-1', 'base-1', 'hw-1', 'vllm', '0.1', 'fp8', 1);
ANALYZE identity_runs, engine_version_runs, browse_count_deltas`); err != nil {
		t.Fatal(err)
	}
	for _, q := range bests.CountSQL {
		rows, _ := conn.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) "+q.SQL, q.Arg)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		for _, table := range []string{"browse_groups", " runs ", " on runs"} {
			if strings.Contains(plan, table) {
				t.Errorf("the plan reads %s:\n%s\nof\n%s", strings.TrimSpace(table), plan, q.SQL)
			}
		}
		if !strings.Contains(plan, q.Table) {
			t.Errorf("the plan does not read %s:\n%s", q.Table, plan)
		}
		if strings.Contains(plan, "rows=2000") || strings.Contains(plan, "Rows Removed by Filter: 2000") {
			t.Errorf("the plan reads a row per group:\n%s", plan)
		}
	}
}

// foldOverAndOver folds s's counts again and again until the function it
// returns is called, which waits for the last fold and returns the first
// error, if any.
func foldOverAndOver(ctx context.Context, s *store.Store) (stop func() error) {
	quit, folded := make(chan struct{}), make(chan error, 1)
	go func() {
		for {
			select {
			case <-quit:
				folded <- nil
				return
			default:
			}
			if _, err := s.FoldCounts(ctx); err != nil {
				folded <- err
				return
			}
		}
	}()
	return func() error {
		close(quit)
		return <-folded
	}
}
