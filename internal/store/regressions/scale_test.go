package regressions_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/regressions"
	"github.com/speedmatrix/speedmatrix/internal/store/rivals"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestScaleTimes prints the median time of the reads of /regressions
// and of a report's "what differs" on two loaded databases (as
// docs/scale.md loads them), and of the fold of every setup. It is
// skipped without SCALE_DB_1K and SCALE_DB_100K; it folds, so point it
// at copies:
//
//	SCALE_DB_1K=postgres://…/copy_1k SCALE_DB_100K=postgres://…/copy_100k \
//	go test -run TestScaleTimes -v ./internal/store/regressions
//
// Demo data's changes are left out of version_changes; to time lists
// that hold entries, mark a copy's history_cells not demo first.
func TestScaleTimes(t *testing.T) {
	for _, env := range []string{"SCALE_DB_1K", "SCALE_DB_100K"} {
		url := os.Getenv(env)
		if url == "" {
			t.Skip("SCALE_DB_1K and SCALE_DB_100K name the loaded databases")
		}
		ctx := context.Background()
		s, err := store.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		n, err := s.FoldVersionChanges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: fold of %d setups %v", env, n, time.Since(start))
		all, err := s.VersionChanges(ctx, regressions.Query{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		engine, hardware, runID := "vllm", "rtx-3090-24gb", "none"
		if len(all) > 0 {
			engine, hardware, runID = all[0].Engine, all[0].Hardware, all[0].NewRun
		}
		var id string
		conn := storetest.RawConn(t, url)
		if err := conn.QueryRow(ctx, `SELECT run_id FROM best_cells WHERE context = 0 AND concurrency = 1
    AND metric = 'total_tps' ORDER BY run_id LIMIT 1`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			fn   func() error
		}{
			{"list", func() error { _, err := s.VersionChanges(ctx, regressions.Query{}); return err }},
			{"engine", func() error { _, err := s.VersionChanges(ctx, regressions.Query{Engine: engine}); return err }},
			{"hardware", func() error { _, err := s.VersionChanges(ctx, regressions.Query{Hardware: hardware}); return err }},
			{"run", func() error { _, err := s.VersionChanges(ctx, regressions.Query{Run: runID}); return err }},
			{"rivals", func() error {
				_, err := s.FastestOthers(ctx, id, []rivals.Cell{{Context: 0, Concurrency: 1}, {Context: 0, Concurrency: 32}})
				return err
			}},
		} {
			var times []time.Duration
			for range 21 {
				t0 := time.Now()
				if err := c.fn(); err != nil {
					t.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			t.Logf("%s: %-8s median %v (%d changes listed in all)", env, c.name, times[len(times)/2], len(all))
		}
		s.Close()
	}
}
