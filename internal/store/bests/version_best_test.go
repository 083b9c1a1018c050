package bests_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// versionQueries is every board filtered by an engine version of the
// historyRun set that versionBoards compares: several versions (one no run
// has), alone and with group filters, every metric, two grid points,
// valid and queued, without and with the flagged runs, short and long.
func versionQueries() []bests.LeaderQuery {
	// A short board matters with the flagged runs: it leaves stored
	// bests out (bestsWithFlagged).
	shapes := []struct {
		flagged bool
		limit   int
	}{{false, 50}, {true, 2}, {true, 50}}
	var qs []bests.LeaderQuery
	for _, version := range []string{"0.8.0", "0.10.0", "9.9.9"} {
		for _, f := range []bests.RunFilter{{}, {Hardware: "rtx-3090-24gb"}, {Model: "qwen3-8b", Quantization: "awq"}} {
			f.EngineVersion = version
			for _, metric := range bests.Metrics {
				for _, cell := range [][2]int{{0, 1}, {8192, 4}} {
					for _, sh := range shapes {
						for _, queued := range []bool{false, true} {
							qs = append(qs, bests.LeaderQuery{Context: cell[0], Concurrency: cell[1], Metric: metric,
								Queued: queued, Filter: f, Limit: sh.limit, IncludeFlagged: sh.flagged})
						}
					}
				}
			}
		}
	}
	return qs
}

// versionBoards is every board of versionQueries as Leaderboard answers it
// (got, from version_best_cells) and as ranking every matching run's own
// cells does (want: the submitter filter that every run of the set matches
// takes that path), one line per board, and how many of them have a row.
func versionBoards(t *testing.T, s *store.Store) (got, want []string, filled int) {
	t.Helper()
	for _, q := range versionQueries() {
		name := fmt.Sprintf("%+v: ", q)
		stored := boardLines(t, s, q)
		q.Filter.Submitter = "sandberg"
		live := boardLines(t, s, q)
		got, want = append(got, name+stored), append(want, name+live)
		if live != "" {
			filled++
		}
	}
	return got, want, filled
}

// boardLines is q's board, every field of every row.
func boardLines(t *testing.T, s *store.Store, q bests.LeaderQuery) string {
	t.Helper()
	rows, err := s.Leaderboard(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range rows {
		lines = append(lines, fmt.Sprintf("%+v", r))
	}
	return strings.Join(lines, " | ")
}

// versionRun is historyRun with a per-request tok/s in most cells, so
// every metric ranks.
func versionRun(rng *rand.Rand, i int) *run.Run {
	r := historyRun(rng, i)
	for j := range r.Decode {
		if c := &r.Decode[j]; rng.IntN(4) != 0 {
			c.PerRequestTPS = f(float64(5 * (1 + rng.IntN(4))))
		}
	}
	return r
}

// TestVersionBoardsMatchRuns stores a mixed set of runs (one by one and
// in a batch) and wants every board filtered by engine version, read from
// version_best_cells, to equal the board ranked from the matching runs'
// own cells: after the uploads, after hiding the runs that held the bests
// of several boards (the next best takes each place), after showing one
// again and deleting another, after deriving two again (one loses its
// cells, one is flagged above the bound); and the table equal to a
// rebuild from every run.
func TestVersionBoardsMatchRuns(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	account, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(19, 3))
	ids := storetest.InsertBothWays(t, s, 120, "v", func(i int) *run.Run { return versionRun(rng, i) })
	check := func(step string) {
		t.Helper()
		got, want, filled := versionBoards(t, s)
		bad := 0
		for i := range got {
			if got[i] != want[i] {
				if bad++; bad <= 5 {
					t.Errorf("%s: %s\nranked from the runs' cells: %s", step, got[i], want[i])
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d boards differ", step, bad, len(got))
		}
		if filled < len(got)/3 {
			t.Errorf("%s: %d of %d boards have a row; the fixture should fill more", step, filled, len(got))
		}
	}
	check("stored")

	// Hide the holders of the first place of every version's total and
	// TTFT boards at 0×1, valid and queued, then show one again and delete
	// another.
	holders := map[string]bool{}
	for _, version := range []string{"0.8.0", "0.9.0", "0.10.0"} {
		for _, metric := range []string{bests.MetricTotal, bests.MetricTTFT} {
			for _, queued := range []bool{false, true} {
				q := bests.LeaderQuery{Concurrency: 1, Metric: metric, Queued: queued, Limit: 1,
					Filter: bests.RunFilter{EngineVersion: version}}
				for _, id := range storetest.LeaderIDs(t, s, q) {
					holders[id] = true
				}
			}
		}
	}
	if len(holders) < 4 {
		t.Fatalf("%d holders of first places; the fixture should make more", len(holders))
	}
	storetest.HideThenShowAndDelete(t, s, account, holders, &ids, check, "first places hidden")

	// Derive the first places of 0.10.0's total board again: one loses
	// its valid cells, the next is flagged above the bound.
	q := bests.LeaderQuery{Concurrency: 1, Metric: bests.MetricTotal, Limit: 2,
		Filter: bests.RunFilter{EngineVersion: "0.10.0"}}
	storetest.DeriveFailedAndFlagged(t, s, storetest.LeaderIDs(t, s, q))
	check("two derived again")

	before := strings.Join(storetest.DumpTable(t, dbURL, "version_best_cells"), "\n")
	if err := s.RebuildBrowse(ctx); err != nil {
		t.Fatal(err)
	}
	if after := strings.Join(storetest.DumpTable(t, dbURL, "version_best_cells"), "\n"); before != after {
		t.Errorf("the kept table differs from a rebuild from every run:\nkept:\n%s\nrebuilt:\n%s", before, after)
	}
	check("rebuilt")
}
