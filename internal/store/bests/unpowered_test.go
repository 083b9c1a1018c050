package bests_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// unpoweredRun is historyRun with a board power on some valid cells (0 W
// on a few, which counts as none), and a submitter other than Sandberg on
// some runs, so the submitter filter picks some of a group's runs.
func unpoweredRun(rng *rand.Rand, i int) *run.Run {
	r := historyRun(rng, i)
	if rng.IntN(4) == 0 {
		r.Submitter = "Ana"
	}
	for j := range r.Decode {
		switch rng.IntN(6) {
		case 0, 1:
			r.Decode[j].PowerW = run.F(300 + float64(rng.IntN(100)))
		case 2:
			r.Decode[j].PowerW = run.F(0)
		}
	}
	return r
}

// unpoweredFilters are the boards' filters Unpowered is checked under:
// none, each kind, a base model, and the engine version with the
// submitter (which no table of bests answers).
var unpoweredFilters = []bests.RunFilter{{}, {Hardware: "rtx-3090-24gb"}, {Model: "qwen3-8b", Quantization: "awq"},
	{Model: "qwen-qwen3-8b-fp8"}, {Engine: "vllm", EngineVersion: "0.10.0"}, {Submitter: "ana"},
	{EngineVersion: "0.8.0", Submitter: "sandberg"}, {Hardware: "no-such-gpu"}}

// liveUnpowered counts the runs a tokens-per-joule board at ctx × conc
// filtered by f leaves out for want of power, from the runs' own cells:
// what the kept count must equal.
func liveUnpowered(t *testing.T, dbURL string, ctx, conc int, f bests.RunFilter) int64 {
	t.Helper()
	conds := []string{"true"}
	args := []any{ctx, conc}
	for col, v := range map[string]string{"r.hardware_slug": f.Hardware, "r.engine_slug": f.Engine,
		"r.engine_version": f.EngineVersion, "r.quantization_slug": f.Quantization, "r.submitter_slug": f.Submitter} {
		if v != "" {
			args = append(args, v)
			conds = append(conds, fmt.Sprintf("%s = $%d", col, len(args)))
		}
	}
	if f.Model != "" {
		args = append(args, f.Model)
		conds = append(conds, fmt.Sprintf("(r.model_slug = $%[1]d OR r.model_base_slug = $%[1]d)", len(args)))
	}
	return storetest.MustQueryInt(t, dbURL, `
SELECT count(*) FROM runs r
WHERE NOT r.hidden AND r.profile <> 'quick' AND NOT r.above_bound AND `+strings.Join(conds, " AND ")+`
    AND EXISTS (SELECT FROM decode_cells c WHERE c.run_id = r.id AND c.context = $1 AND c.concurrency = $2
        AND c.status = 'valid' AND c.total_tps > 0)
    AND NOT EXISTS (SELECT FROM decode_cells c WHERE c.run_id = r.id AND c.context = $1 AND c.concurrency = $2
        AND c.status = 'valid' AND c.total_tps > 0 AND (c.telemetry->>'power_w')::float8 > 0)`, args...)
}

// TestUnpoweredCountsRuns stores a mixed set of runs (one by one and in a
// batch) and wants the runs a tokens-per-joule board leaves out for want
// of power, read from unpowered_runs, to equal the count from the runs'
// own cells under every filter: after the uploads, after hiding runs,
// showing one again and deleting another, after deriving two again (one
// loses its cells, one is flagged), after one gains a power; and the
// table equal to a rebuild from every run. It counts
// runs, not the setups the board ranks: one setup leaves several out.
func TestUnpoweredCountsRuns(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	account, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(30, 34))
	ids := storetest.InsertBothWays(t, s, 120, "u", func(i int) *run.Run { return unpoweredRun(rng, i) })
	check := func(step string) {
		t.Helper()
		some := 0
		for _, f := range unpoweredFilters {
			for _, p := range [][2]int{{0, 1}, {8192, 4}, {65536, 1}} {
				q := bests.LeaderQuery{Context: p[0], Concurrency: p[1], Metric: bests.MetricTPJ, Filter: f}
				got, err := s.Unpowered(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if want := liveUnpowered(t, dbURL, p[0], p[1], f); int64(got) != want {
					t.Errorf("%s: %d×%d %+v: %d runs left out, want %d", step, p[0], p[1], f, got, want)
				}
				if got > 0 {
					some++
				}
			}
		}
		if some < 10 {
			t.Errorf("%s: %d counts above zero; the fixture should make more", step, some)
		}
	}
	check("stored")

	// Runs, not setups: at 0×1 more runs are left out than the setups
	// that rank by tok/s and not by tokens per joule.
	all := bests.LeaderQuery{Concurrency: 1, Metric: bests.MetricTotal, Limit: 1000}
	powered := all
	powered.Metric = bests.MetricTPJ
	setups := len(storetest.LeaderIDs(t, s, all)) - len(storetest.LeaderIDs(t, s, powered))
	if n, err := s.Unpowered(ctx, powered); err != nil || n <= setups {
		t.Errorf("0×1: %d runs left out (%v); want more than the %d setups", n, err, setups)
	}

	// Hide some of Sandberg's runs left out at 0×1, show one again and
	// delete another.
	holders := map[string]bool{}
	for _, id := range ids {
		r, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Submitter == "Sandberg" && r.Profile != "quick" && len(r.Flags) == 0 && r.Decode[0].Status == run.Valid &&
			r.Decode[0].PowerW == nil && len(holders) < 4 {
			holders[id] = true
		}
	}
	storetest.HideThenShowAndDelete(t, s, account, holders, &ids, check, "left-out runs hidden")
	var shown []string
	for _, id := range ids {
		if !holders[id] {
			shown = append(shown, id)
		}
	}
	storetest.DeriveFailedAndFlagged(t, s, shown[:2])
	check("two derived again")

	// A run derived again with a power at every cell leaves no cell out.
	r, err := s.GetRun(ctx, shown[2])
	if err != nil {
		t.Fatal(err)
	}
	for j := range r.Decode {
		r.Decode[j].PowerW = run.F(350)
	}
	if err := s.ReplaceDerived(ctx, shown[2], r); err != nil {
		t.Fatal(err)
	}
	check("one powered")

	before := strings.Join(storetest.DumpTable(t, dbURL, "unpowered_runs"), "\n")
	if err := s.RebuildBrowse(ctx); err != nil {
		t.Fatal(err)
	}
	if after := strings.Join(storetest.DumpTable(t, dbURL, "unpowered_runs"), "\n"); before != after {
		t.Errorf("the kept counts differ from a rebuild from every run:\nkept:\n%s\nrebuilt:\n%s", before, after)
	}
	check("rebuilt")
}
