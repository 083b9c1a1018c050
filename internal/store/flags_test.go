package store_test

import (
	"context"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// A flagged run keeps its flag through the store and ranks only when the
// leaderboard includes flagged runs; derived again without the flag, it
// ranks by default. Another bound version makes it stale.
func TestFlagsRoundTrip(t *testing.T) {
	st, _ := dbtest.New(t)
	ctx := context.Background()
	r := cellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, 150, 20, 1)
	r.Flags, r.BoundVersion = []string{run.FlagAboveBound}, "optimistic-1:abc"
	id, _, err := st.InsertRun(ctx, r, "flags-1", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.GetRun(ctx, id)
	if err != nil || len(got.Flags) != 1 || got.Flags[0] != run.FlagAboveBound || got.BoundVersion != r.BoundVersion {
		t.Fatalf("GetRun flags %v %q, %v", got.Flags, got.BoundVersion, err)
	}
	ranked := func(include bool) []store.LeaderRow {
		rows, err := st.Leaderboard(ctx, store.LeaderQuery{Metric: store.MetricTotal, Concurrency: 1, Limit: 10, IncludeFlagged: include})
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	if n := len(ranked(false)); n != 0 {
		t.Errorf("flagged run ranks by default (%d rows)", n)
	}
	if rows := ranked(true); len(rows) != 1 || !rows[0].AboveBound {
		t.Errorf("with flagged runs included: %+v", rows)
	}
	if ids, err := st.StaleRuns(ctx, r.RulesVersion, "optimistic-2:def"); err != nil || len(ids) != 1 {
		t.Errorf("StaleRuns with another bound version = %v, %v", ids, err)
	}
	r.Flags = nil
	if err := st.ReplaceDerived(ctx, id, r); err != nil {
		t.Fatal(err)
	}
	if rows := ranked(false); len(rows) != 1 || rows[0].AboveBound {
		t.Errorf("unflagged again: %+v", rows)
	}
}
