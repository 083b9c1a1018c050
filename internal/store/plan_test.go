package store_test

import (
	"context"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// planRun is a run of model on one RTX 3060 12GB whose per-request speed
// at context × concurrency is per[context][concurrency]; a negative speed
// is a queued cell. perRequest false leaves per_request_tps out, as some
// formats do.
func planRun(model, profile string, perRequest bool, per map[int]map[int]float64) *run.Run {
	r := &run.Run{Provenance: run.Measured, RulesVersion: "v1", Profile: profile,
		Hardware: run.Hardware{Type: run.DiscreteGPU, GPUName: "NVIDIA GeForce RTX 3060", GPUCount: 1, VRAMGB: 12},
		Engine:   run.Engine{Name: "vllm", Version: "0.32.0", Quantization: "FP8", LaunchCommand: "vllm serve " + model},
		Model:    run.Model{ID: model}}
	for ctx, row := range per {
		for conc, v := range row {
			c := run.DecodeCell{Context: ctx, Concurrency: conc, Status: run.Valid, Measured: true}
			if v < 0 {
				c.Status, v = run.Queued, -v
			}
			c.TotalTPS, c.TTFTms = f(v*float64(conc)), f(100)
			if perRequest {
				c.PerRequestTPS = f(v)
			}
			r.Decode = append(r.Decode, c)
		}
	}
	return r
}

func TestPlanCells(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	seed := map[int]map[int]float64{
		0:     {1: 60, 2: 55, 4: 48, 8: 40, 16: -30},
		16384: {1: 48, 2: 43.5, 4: 39.3, 8: 25, 16: -12},
		32768: {1: 40, 2: 35, 4: 28, 8: 15, 16: -8},
	}
	seedID := storetest.MustInsertRun(t, s, planRun("Qwen/Qwen3.5-4B-FP8", "", true, seed), "seed")
	// The same setup again, faster at 32K × 4 only: the best there.
	fast := storetest.MustInsertRun(t, s, planRun("Qwen/Qwen3.5-4B-FP8", "", true,
		map[int]map[int]float64{32768: {1: 39, 4: 31}}), "fast")
	// A quick run never ranks, however fast.
	storetest.MustInsertRun(t, s, planRun("Qwen/Qwen3.5-4B-FP8", "quick", true,
		map[int]map[int]float64{32768: {1: 400, 8: 300}}), "quick")
	// Another model without per-request speeds, measured only to 8K.
	storetest.MustInsertRun(t, s, planRun("meta-llama/Llama-3.1-8B-FP8", "", false,
		map[int]map[int]float64{0: {1: 45, 4: 30}, 8192: {1: 40, 4: 25}}), "llama")
	// Another hardware: never a candidate.
	other := planRun("Qwen/Qwen3.5-4B-FP8", "", true, seed)
	other.Hardware.GPUCount = 2
	storetest.MustInsertRun(t, s, other, "other")

	hw := catalog.Hardware(run.Hardware{Type: run.DiscreteGPU, GPUName: "NVIDIA GeForce RTX 3060", GPUCount: 1, VRAMGB: 12}).Slug
	cells, err := s.PlanCells(ctx, hw, 20000)
	if err != nil {
		t.Fatal(err)
	}
	qwen, _ := catalog.Model("Qwen/Qwen3.5-4B-FP8")
	setups := map[string]int{}
	for _, c := range cells {
		setups[c.Setup.Model]++
		if c.Setup.Model == qwen.Slug && c.Context != 32768 || c.Setup.Model != qwen.Slug && c.Context != 8192 {
			t.Errorf("cell at %d of %s: each setup's cells are at its context used", c.Context, c.Setup.Model)
		}
		if c.RunID != seedID && c.RunID != fast && c.Setup.Model == qwen.Slug {
			t.Errorf("cell of run %s, which is no best", c.RunID)
		}
	}
	if len(setups) != 2 {
		t.Fatalf("setups %v, want the two measured on %s", setups, hw)
	}

	a := plan.Measured(plan.Request{Context: 20000, MinUserTPS: 30}, cells, false)
	if len(a.Setups) != 1 || a.Setups[0].MaxUsers != 4 || a.Setups[0].RunID != fast || !a.Setups[0].Raised {
		t.Errorf("need 30 at 20000: %+v", a.Setups)
	}
	if len(a.Unmet) != 1 || !a.Unmet[0].Short || a.Unmet[0].ContextUsed != 8192 {
		t.Errorf("the 8K-only setup is short: %+v", a.Unmet)
	}

	cells, err = s.PlanCells(ctx, hw, 0)
	if err != nil {
		t.Fatal(err)
	}
	a = plan.Measured(plan.Request{Context: 0, MinUserTPS: 20}, cells, false)
	if len(a.Setups) != 2 || a.Setups[0].MaxUsers != 8 || a.Setups[0].RunID != seedID ||
		a.Setups[1].MaxUsers != 4 || !a.Setups[1].Derived || a.Setups[1].PerRequestTPS != 30 {
		t.Errorf("need 20 at 0: %+v", a.Setups)
	}

	runs, err := s.PlanRuns(ctx, []string{seedID, fast, "nosuchrun"})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[seedID].Engine.LaunchCommand != "vllm serve Qwen/Qwen3.5-4B-FP8" || runs[fast].Hardware.VRAMGB != 12 {
		t.Errorf("PlanRuns: %+v", runs)
	}
	if none, err := s.PlanCells(ctx, "no-such-gpu", 0); err != nil || len(none) != 0 {
		t.Errorf("unmeasured hardware: %d cells, %v", len(none), err)
	}
}
