package demo

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// LoadWorkers is how many runs (or batches) LoadSynthetic stores at once:
// each run is one transaction bound by its commit, so a few connections in
// parallel load about three times as fast as one (TOOLCHAIN.md). With a
// batch store the workers generate runs in parallel while the batches are
// stored one at a time.
const LoadWorkers = 4

// BatchSize is how many runs LoadSynthetic stores per transaction when the
// store has the bulk path (store.Store.InsertRuns): large enough that the
// commit and round trips vanish, small enough to keep a transaction short.
const BatchSize = 250

// analyzeEvery is how many batches LoadSynthetic stores between refreshes
// of the planner's statistics (and it refreshes them at the end): tables
// that grow from empty mislead the planner until analysed.
const analyzeEvery = 20

// batchStore is a store with the bulk path.
type batchStore interface {
	InsertRuns(ctx context.Context, runs []store.NewRun) ([]store.Inserted, error)
	Analyze(ctx context.Context) error
}

// LoadSynthetic generates runs 0..n-1 of seed and stores them, workers at a
// time (LoadWorkers when workers < 1), BatchSize runs per transaction when
// st has InsertRuns. Runs already stored (same seed and index) are skipped
// by their dedupe key. progress, when not nil, is called after every stored
// run or batch with the number done so far; it must be safe for concurrent
// use. It returns how many runs were new.
func LoadSynthetic(ctx context.Context, st ingest.Store, seed int64, n, workers int, progress func(done int)) (created int, err error) {
	if workers < 1 {
		workers = LoadWorkers
	}
	size := 1
	bs, bulk := st.(batchStore)
	if bulk {
		size = BatchSize
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next, done, fresh atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				from := int(next.Add(int64(size)) - int64(size))
				if from >= n {
					return
				}
				to := min(from+size, n)
				isNew, err := storeRange(ctx, st, bs, seed, from, to)
				if err != nil {
					cancel(fmt.Errorf("demo runs %d–%d: %w", from, to-1, err))
					return
				}
				fresh.Add(int64(isNew))
				if bulk && (from/size)%analyzeEvery == analyzeEvery-1 {
					if err := bs.Analyze(ctx); err != nil {
						cancel(err)
						return
					}
				}
				if d := done.Add(int64(to - from)); progress != nil {
					progress(int(d))
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && err != context.Canceled {
		return int(fresh.Load()), err
	}
	if bulk && ctx.Err() == nil {
		if err := bs.Analyze(ctx); err != nil {
			return int(fresh.Load()), err
		}
	}
	return int(fresh.Load()), ctx.Err()
}

// storeRange generates and stores runs from..to-1 of seed, in one batch
// when bs is not nil, and returns how many were new.
func storeRange(ctx context.Context, st ingest.Store, bs batchStore, seed int64, from, to int) (int, error) {
	if bs == nil {
		created := 0
		for i := from; i < to; i++ {
			s := One(seed, i)
			_, isNew, err := st.InsertRun(ctx, s.Run, s.Key, s.Source)
			if err != nil {
				return created, err
			}
			if isNew {
				created++
			}
		}
		return created, nil
	}
	batch := make([]store.NewRun, 0, to-from)
	for i := from; i < to; i++ {
		s := One(seed, i)
		batch = append(batch, store.NewRun{Run: s.Run, DedupeKey: s.Key, Source: s.Source})
	}
	res, err := bs.InsertRuns(ctx, batch)
	created := 0
	for _, r := range res {
		if r.Created {
			created++
		}
	}
	return created, err
}
