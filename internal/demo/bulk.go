package demo

import (
	"context"
	"errors"
	"runtime"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// BulkBatch is how many runs LoadBulk writes per transaction: a few
// thousand rows of cells per COPY, and few enough runs in memory (each
// carries its ~12 KB source document) that several batches in flight
// stay small.
const BulkBatch = 1000

// bulkFinishEvery is how many batches LoadBulk copies between offers of
// their best cells onto stored runs (store.Bulk.FinishInBackground, made
// while the next batches are copied): each offer costs about as much as
// the best cells it writes, a few hundred thousand rows however many runs
// are behind them. A load into an empty database offers nothing until the
// end, where it copies the best of every key once (store.Bulk).
const bulkFinishEvery = 250

// LoadBulk generates runs 0..n-1 of seed on workers goroutines (one per
// CPU when workers < 1) and writes them in order, one batch at a time on
// one connection (store.Bulk), offering their best cells every
// bulkFinishEvery batches in the background (onto stored runs) and at the
// end, then builds the indexes a load into an empty database deferred
// (Bulk.Close): the same runs and the same tables as LoadSynthetic, at the rate the
// generator and COPY allow. Runs already stored are skipped by their
// dedupe key, so an interrupted load is finished by running it again
// (which then rebuilds the leaderboard's tables from every run). progress,
// when not nil, is called after every batch with the number done so far.
func LoadBulk(ctx context.Context, st *store.Store, seed int64, n, workers int, progress func(done int)) (created int, err error) {
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	bulk, err := st.NewBulk(ctx)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queue := generate(ctx, seed, n, workers)
	for b := range queue {
		var runs []store.NewRun
		select {
		case runs = <-b.out:
		case <-ctx.Done():
			return created, ctx.Err()
		}
		res, err := bulk.CopyRuns(ctx, runs)
		if err != nil {
			return created, err
		}
		for _, r := range res {
			if r.Created {
				created++
			}
		}
		if (b.from/BulkBatch)%bulkFinishEvery == bulkFinishEvery-1 && created == b.to {
			if err := bulk.FinishInBackground(ctx); err != nil {
				return created, err
			}
		}
		if progress != nil {
			progress(b.to)
		}
	}
	switch {
	case created == 0:
		return 0, errors.Join(ctx.Err(), bulk.Close(ctx))
	case created < n:
		// Some runs were stored already, maybe by a load interrupted
		// before it offered them: derive the tables from every run.
		if err := bulk.Close(ctx); err != nil {
			return created, err
		}
		return created, st.RebuildBrowse(ctx)
	}
	if err := bulk.Finish(ctx); err != nil {
		return created, err
	}
	return created, bulk.Close(ctx)
}

// batch is runs from..to-1, generated into out.
type batch struct {
	from, to int
	out      chan []store.NewRun
}

// generate generates runs 0..n-1 of seed in batches of BulkBatch on
// workers goroutines until ctx ends. Batches are generated in any order but
// come out of the returned channel in index order, so the first spelling
// of a name is the first run's, as one by one; each batch's runs arrive on
// its out when ready. A few batches are made ahead.
func generate(ctx context.Context, seed int64, n, workers int) <-chan batch {
	work := make(chan batch)
	queue := make(chan batch, workers+1)
	go func() {
		defer close(queue)
		defer close(work)
		for from := 0; from < n; from += BulkBatch {
			b := batch{from: from, to: min(from+BulkBatch, n), out: make(chan []store.NewRun, 1)}
			select {
			case queue <- b:
			case <-ctx.Done():
				return
			}
			select {
			case work <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	for range workers {
		go func() {
			for b := range work {
				runs := make([]store.NewRun, 0, b.to-b.from)
				for i := b.from; i < b.to; i++ {
					s := One(seed, i)
					runs = append(runs, store.NewRun{Run: s.Run, DedupeKey: s.Key, Source: s.Source})
				}
				b.out <- runs
			}
		}()
	}
	return queue
}
