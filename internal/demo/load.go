package demo

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
)

// LoadWorkers is how many runs LoadSynthetic stores at once: each run is one
// transaction bound by its commit, so a few connections in parallel load
// about three times as fast as one (TOOLCHAIN.md).
const LoadWorkers = 4

// LoadSynthetic generates runs 0..n-1 of seed and stores them, workers at a
// time (LoadWorkers when workers < 1). Runs already stored (same seed and
// index) are skipped by their dedupe key. progress, when not nil, is called
// after every stored run with the number done so far; it must be safe for
// concurrent use. It returns how many runs were new.
func LoadSynthetic(ctx context.Context, st ingest.Store, seed int64, n, workers int, progress func(done int)) (created int, err error) {
	if workers < 1 {
		workers = LoadWorkers
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next, done, fresh atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				s := One(seed, i)
				_, isNew, err := st.InsertRun(ctx, s.Run, s.Key, s.Source)
				if err != nil {
					cancel(fmt.Errorf("demo run %d: %w", i, err))
					return
				}
				if isNew {
					fresh.Add(1)
				}
				if d := done.Add(1); progress != nil {
					progress(int(d))
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && err != context.Canceled {
		return int(fresh.Load()), err
	}
	return int(fresh.Load()), ctx.Err()
}
