package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// rawLoad is the baseline: the same documents stored by raw pgx inserts.
type rawLoad struct {
	b    *baseline
	once sync.Once
}

func openRaw(ctx context.Context, dbURL string) (*rawLoad, error) {
	if dbURL == "" {
		return nil, errors.New("-baseline needs DATABASE_URL, the server's database")
	}
	b, err := newBaseline(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	return &rawLoad{b: b}, nil
}

// close drops the scratch tables, once.
func (r *rawLoad) close() {
	r.once.Do(func() { _ = r.b.drop(context.Background()) })
}

// run stores one round of documents, parsed and derived before the clock
// starts (the baseline is the database's share only), and returns the rate.
func (r *rawLoad) run(l load, round int) (float64, error) {
	type prepared struct {
		run *run.Run
		key string
	}
	docs := make([]prepared, l.clients*l.uploads)
	for n := range docs {
		// Another round number than the API's, so the keys never meet.
		u := ingest.Upload{Files: []archive.File{{Name: "benchmark_results.json", Data: l.copyOf(round+1000, n)}}}
		rn, key, err := ingest.Prepare(u, time.Now())
		if err != nil {
			return 0, err
		}
		docs[n] = prepared{rn, key}
	}
	ctx := context.Background()
	var mu sync.Mutex
	var first error
	elapsed := l.each(func(_, n int) {
		if err := r.b.insert(ctx, docs[n].run, docs[n].key); err != nil {
			mu.Lock()
			first = cmp(first, err)
			mu.Unlock()
		}
	})
	if first != nil {
		return 0, first
	}
	rate := float64(len(docs)) / elapsed.Seconds()
	fmt.Printf("%d raw pgx inserts from %d clients in %.1f s (%.0f runs/s)\n", len(docs), l.clients, elapsed.Seconds(), rate)
	return rate, nil
}

// cmp keeps the first error.
func cmp(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
