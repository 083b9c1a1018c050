package bests_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// A flagged run keeps which flags it raised through the store (a power
// the boards cannot draw is not worded as a cell above the bound) and
// ranks only when the leaderboard includes flagged runs; derived again
// with another flag, the board says which; without one, it ranks by
// default. Another bound version makes it stale.
func TestFlagsRoundTrip(t *testing.T) {
	st, _ := dbtest.New(t)
	ctx := context.Background()
	r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, 150, 20, 1)
	r.Flags, r.BoundVersion = []string{run.FlagPowerImplausible}, "optimistic-1:abc"
	id, _, err := st.InsertRun(ctx, r, "flags-1", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.GetRun(ctx, id)
	if err != nil || !slices.Equal(got.Flags, []string{run.FlagPowerImplausible}) || got.BoundVersion != r.BoundVersion {
		t.Fatalf("GetRun flags %v %q, %v", got.Flags, got.BoundVersion, err)
	}
	ranked := func(include bool) []bests.LeaderRow {
		rows, err := st.Leaderboard(ctx, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Limit: 10, IncludeFlagged: include})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	if n := len(ranked(false)); n != 0 {
		t.Errorf("flagged run ranks by default (%d rows)", n)
	}
	if rows := ranked(true); len(rows) != 1 || !slices.Equal(rows[0].Flags, []string{run.FlagPowerImplausible}) {
		t.Errorf("with flagged runs included: %+v", rows)
	}
	if list, _, err := st.ListRuns(ctx, bests.RunFilter{}, bests.SortNewest, nil, 10); err != nil || len(list) != 1 ||
		!slices.Equal(list[0].Flags, []string{run.FlagPowerImplausible}) {
		t.Errorf("ListRuns flags %+v, %v", list, err)
	}
	if rules, ids, err := st.StaleRuns(ctx, r.RulesVersion, "optimistic-2:def"); err != nil || len(rules) != 0 || len(ids) != 1 {
		t.Errorf("StaleRuns with another bound version = %v, %v", ids, err)
	}
	r.Flags = []string{run.FlagAboveBound, run.FlagPowerImplausible}
	if err := st.ReplaceDerived(ctx, id, r); err != nil {
		t.Fatal(err)
	}
	if rows := ranked(true); len(rows) != 1 || !slices.Equal(rows[0].Flags, r.Flags) {
		t.Errorf("derived again with both flags: %+v", rows)
	}
	r.Flags = nil
	if err := st.ReplaceDerived(ctx, id, r); err != nil {
		t.Fatal(err)
	}
	if rows := ranked(false); len(rows) != 1 || len(rows[0].Flags) != 0 || rows[0].Flags == nil {
		t.Errorf("unflagged again: %+v", rows)
	}
}

// TestFlaggedBoardMatchesLive: a board with the runs above the bound
// included, read from best_cells and the flagged runs, ranks exactly as
// ranking every run's own cells does (a submitter filter that every run
// matches takes that path): flagged runs better and worse than a group's
// best, a group of flagged runs only, a tie, a hidden flagged run, every
// metric, queued cells and a filter.
func TestFlaggedBoardMatchesLive(t *testing.T) {
	st, _ := dbtest.New(t)
	ctx := context.Background()
	const m = "Qwen/Qwen3-8B"
	add := func(gpu string, status run.Status, total, ttft float64, min int, flagged bool) string {
		r := storetest.CellRun(m, gpu, "vLLM", status, total, ttft, min)
		for i := range r.Decode { // ranked by tokens per joule too
			r.Decode[i].PowerW = run.F(400 + float64(min))
		}
		if flagged {
			r.Flags = []string{run.FlagAboveBound}
		}
		id, _, err := st.InsertRun(ctx, r, fmt.Sprint("flagged-board-", min), []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	add("RTX 4090", run.Valid, 100, 50, 1, false)
	add("RTX 4090", run.Valid, 300, 60, 2, true) // better than its group's best
	add("RTX 3090", run.Valid, 120, 30, 3, false)
	add("RTX 3090", run.Valid, 90, 20, 4, true) // worse by tok/s, better by TTFT
	add("H100 PCIe", run.Valid, 500, 10, 5, true)
	add("H100 PCIe", run.Valid, 500, 10, 6, true) // a tie: the earlier upload wins
	add("L40S", run.Queued, 250, 40, 7, true)
	add("L40S", run.Queued, 200, 40, 8, false)
	hidden := add("RTX 5090", run.Valid, 900, 5, 9, true)
	if err := st.HideRun(ctx, hidden); err != nil {
		t.Fatal(err)
	}
	for _, metric := range bests.Metrics {
		for _, queued := range []bool{false, true} {
			for _, f := range []bests.RunFilter{{}, {Hardware: "rtx-3090-24gb"}, {Model: "qwen3-8b"}} {
				for _, limit := range []int{1, 2, 10} { // a short board leaves stored bests out
					q := bests.LeaderQuery{Metric: metric, Concurrency: 1, Queued: queued, Filter: f, Limit: limit, IncludeFlagged: true}
					got := storetest.LeaderIDs(t, st, q)
					q.Filter.Submitter = "sandberg"
					want := storetest.LeaderIDs(t, st, q)
					if !slices.Equal(got, want) || (f == bests.RunFilter{} && len(want) == 0) {
						t.Errorf("%s queued=%v %+v limit %d: %v, ranking every run's cells gives %v", metric, queued, f, limit, got, want)
					}
				}
			}
		}
	}
	all := storetest.LeaderIDs(t, st, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Limit: 10, IncludeFlagged: true})
	if len(all) != 3 || slices.Contains(all, hidden) {
		t.Errorf("flagged board = %v, want the three groups' bests and never the hidden run", all)
	}
}
