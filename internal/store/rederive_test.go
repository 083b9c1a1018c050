package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// rederived is a run of three cells as first derived (before) and as
// derived again under new rules (after): 0×1 loses its validity (and the
// group's best to another run), 0×2 its value, 0×4 becomes valid.
func rederived(after bool) *run.Run {
	r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, 150, 20, 2)
	r.Settings.Concurrencies = []int{1, 2, 4}
	r.Decode = append(r.Decode,
		run.DecodeCell{Concurrency: 2, Status: run.Valid, Measured: true, Metrics: run.Metrics{TotalTPS: f(300), TTFTms: f(30)}},
		run.DecodeCell{Concurrency: 4, Status: run.Failed, Measured: true, Metrics: run.Metrics{TotalTPS: f(400), TTFTms: f(40)}})
	if after {
		r.RulesVersion = "v2"
		r.Decode[0].Status = run.Failed
		r.Decode[1].Metrics.TotalTPS = f(250)
		r.Decode[2].Status = run.Valid
	}
	return r
}

// TestReplaceDerivedReindexes derives a run again and wants the browse
// index (the run's slugs and numbers, names, best cells, groups) exactly as
// if the run had been uploaded with its new cells in the first place.
func TestReplaceDerivedReindexes(t *testing.T) {
	ctx := context.Background()
	again, againURL := dbtest.New(t)
	fresh, freshURL := dbtest.New(t)
	other := func() *run.Run {
		return storetest.CellRun("Qwen/Qwen3-8B", "NVIDIA GeForce RTX 4090", "vllm", run.Valid, 100, 10, 1)
	}
	storetest.MustInsertRun(t, again, other(), "other")
	id := storetest.MustInsertRun(t, again, rederived(false), "rederived")
	if err := again.ReplaceDerived(ctx, id, rederived(true)); err != nil {
		t.Fatal(err)
	}
	storetest.MustInsertRun(t, fresh, other(), "other")
	storetest.MustInsertRun(t, fresh, rederived(true), "rederived")

	const runsIndex = `(SELECT id, hardware_slug, engine_slug, model_slug, model_base_slug, submitter_slug,
    quantization_slug, catalog_version, best_single_tps, best_peak_tps FROM runs)`
	for _, table := range []string{runsIndex, "identities", "best_cells", "version_best_cells", "submitter_best_cells", "browse_groups", "identity_runs", "engine_version_runs",
		"history_cells", "history_versions", "history_setups", "unpowered_runs", "plan_ladders"} {
		a, b := storetest.DumpTable(t, againURL, table), storetest.DumpTable(t, freshURL, table)
		if len(a) == 0 {
			t.Errorf("%s: %d rows; the fixture should fill it", table, len(a))
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s after ReplaceDerived:\n%v\nas uploaded:\n%v", table, a, b)
		}
	}
	// The run held the best total tok/s at 0×1 and lost it with its validity.
	best, err := again.BestAt(ctx, store.KindHardware, "rtx-4090-24gb", []store.GridPoint{{Context: 0, Concurrency: 1}})
	if err != nil || best[store.GridPoint{Context: 0, Concurrency: 1}].RunID == id {
		t.Errorf("BestAt(0×1) = %+v, %v; want the other run", best, err)
	}
}
