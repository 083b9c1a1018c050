package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/demo"
)

// demoRuns is `speedmatrix demo --runs N [--seed S] [--workers W]`: it
// stores N synthetic runs (marked demo data) for trying the site and for
// scale benchmarks, W goroutines generating them and one connection
// writing them in bulk (demo.LoadBulk: a million runs in minutes). The
// same seed gives the same runs, and loading them again stores nothing
// new.
func demoRuns(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("runs", 1000, "how many synthetic runs to store")
	seed := fs.Int64("seed", 1, "the generator's seed; the same seed gives the same runs")
	workers := fs.Int("workers", 0, "goroutines generating runs (0: one per CPU)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || *n < 0 {
		fmt.Fprintln(stderr, "speedmatrix demo: usage: speedmatrix demo --runs N [--seed S] [--workers W]")
		return 2
	}
	db, err := openDatabase(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix:", err)
		return 1
	}
	defer db.Close(context.WithoutCancel(ctx))
	// A load into an empty database keeps every run's bests in memory to
	// its end, about 1.5 GB at a million runs; a collection each time the
	// heap doubled rescanned them some 160 times, a seventh of the load's
	// CPU. Every third time is enough.
	defer debug.SetGCPercent(debug.SetGCPercent(300))
	start := time.Now()
	progress := func(done int) {
		if done%10000 == 0 && done < *n {
			fmt.Fprintf(stdout, "speedmatrix demo: %d of %d runs (%v)\n", done, *n, time.Since(start).Round(time.Second))
		}
	}
	created, err := demo.LoadBulk(ctx, db.Store, *seed, *n, *workers, progress)
	if err != nil {
		fmt.Fprintln(stderr, "speedmatrix demo:", err)
		return 1
	}
	took := time.Since(start)
	fmt.Fprintf(stdout, "speedmatrix demo: stored %d new demo runs of %d (seed %d) in %v (%.0f runs/s)\n",
		created, *n, *seed, took.Round(time.Millisecond), float64(*n)/max(took.Seconds(), 1e-3))
	return 0
}
