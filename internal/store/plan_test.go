package store_test

import (
	"context"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
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

var planHardware = catalog.Hardware(run.Hardware{Type: run.DiscreteGPU, GPUName: "NVIDIA GeForce RTX 3060", GPUCount: 1, VRAMGB: 12}).Slug

// planAnswers are PlanSetups' answers on the RTX 3060, by model id.
func planAnswers(t *testing.T, s *store.Store, ctxTokens int, need float64, models ...string) map[string]plan.Setup {
	t.Helper()
	setups, err := s.PlanSetups(context.Background(), planHardware, ctxTokens, need)
	if err != nil {
		t.Fatal(err)
	}
	bySlug := map[string]plan.Setup{}
	for _, p := range setups {
		if _, dup := bySlug[p.Key.Model]; dup {
			t.Errorf("setup %s answered twice", p.Key.Model)
		}
		bySlug[p.Key.Model] = p
	}
	out := map[string]plan.Setup{}
	for _, m := range models {
		slug, _ := catalog.Model(m)
		out[m] = bySlug[slug.Slug]
	}
	return out
}

// TestPlanSetupsDecide: the answer per setup, as the store decides it
// from the tables of bests.
func TestPlanSetupsDecide(t *testing.T) {
	s, _ := dbtest.New(t)
	const qwen, llama, noisy, fallback, mixed, three, queued = "Qwen/Qwen3.5-4B-FP8", "meta-llama/Llama-3.1-8B-FP8",
		"Qwen/Qwen3-8B-FP8", "Qwen/Qwen3-14B-FP8", "Qwen/Qwen3-32B-FP8", "google/gemma-3-4b-it", "google/gemma-3-12b-it"
	seed := map[int]map[int]float64{
		0:     {1: 60, 2: 55, 4: 48, 8: 40, 16: -30},
		16384: {1: 48, 2: 43.5, 4: 39.3, 8: 25, 16: -12},
		32768: {1: 40, 2: 35, 4: 28, 8: 15, 16: -8},
	}
	seedID := storetest.MustInsertRun(t, s, planRun(qwen, "", true, seed), "seed")
	// The same setup again, faster at 32K × 4 only: the best there.
	fast := storetest.MustInsertRun(t, s, planRun(qwen, "", true, map[int]map[int]float64{32768: {1: 39, 4: 31}}), "fast")
	// A quick run never answers, however fast.
	storetest.MustInsertRun(t, s, planRun(qwen, "quick", true, map[int]map[int]float64{32768: {1: 400, 8: 300}}), "quick")
	// Another model without per-request speeds, measured only to 8K.
	storetest.MustInsertRun(t, s, planRun(llama, "", false, map[int]map[int]float64{0: {1: 45, 4: 30}, 8192: {1: 40, 4: 25}}), "llama")
	// 4 users miss 20 tok/s by noise, 8 meet it.
	storetest.MustInsertRun(t, s, planRun(noisy, "", true, map[int]map[int]float64{4096: {1: 30, 2: 25, 4: 19.8, 8: 20.1}}), "noisy")
	// A measured per-request speed is used as it is, even below total ÷ users.
	below := planRun(fallback, "", true, map[int]map[int]float64{1024: {1: 30, 4: 22}})
	for i := range below.Decode {
		if below.Decode[i].Concurrency == 4 {
			below.Decode[i].PerRequestTPS = f(18)
		}
	}
	storetest.MustInsertRun(t, s, below, "below")
	// One setup, two formats: the best per request measured 18 at 4 users,
	// the best in total has no per-request speed and 100 ÷ 4 = 25.
	withPer := planRun(mixed, "", true, map[int]map[int]float64{1024: {1: 30, 4: 18}})
	storetest.MustInsertRun(t, s, withPer, "with-per")
	withoutPer := storetest.MustInsertRun(t, s, planRun(mixed, "", false, map[int]map[int]float64{1024: {4: 25}}), "without-per")
	// Three runs of one setup: the one serving most, then the fastest.
	storetest.MustInsertRun(t, s, planRun(three, "", true, map[int]map[int]float64{0: {1: 30, 8: 21}}), "slow")
	fastest := storetest.MustInsertRun(t, s, planRun(three, "", true, map[int]map[int]float64{0: {1: 50, 8: 25}}), "fastest")
	wide := storetest.MustInsertRun(t, s, planRun(three, "", true, map[int]map[int]float64{0: {16: 20.5}}), "wide")
	// Every cell at 8K queued: the context is measured, and meets nothing.
	storetest.MustInsertRun(t, s, planRun(queued, "", true, map[int]map[int]float64{0: {1: 50}, 8192: {1: -10, 2: -8}}), "queued")
	// Another hardware: never an answer here.
	other := planRun(qwen, "", true, map[int]map[int]float64{0: {64: 500}})
	other.Hardware.GPUCount = 2
	storetest.MustInsertRun(t, s, other, "other")

	type want struct {
		run           string
		users, used   int
		speed         float64
		raised, short bool
		derived       bool
	}
	for _, tc := range []struct {
		ctx   int
		need  float64
		model string
		want  want
	}{
		{16384, 20, qwen, want{seedID, 8, 16384, 25, false, false, false}},
		{16384, 40, qwen, want{seedID, 2, 16384, 43.5, false, false, false}},
		{20000, 30, qwen, want{fast, 4, 32768, 31, true, false, false}}, // the next larger context, its best run
		{0, 20, qwen, want{seedID, 8, 0, 40, false, false, false}},      // 16 users queued: not counted
		{16384, 100, qwen, want{"", 0, 16384, 0, false, false, false}},  // no cell meets it
		{20000, 30, llama, want{"", 0, 8192, 0, false, true, false}},    // measured only to 8K
		{0, 20, llama, want{"", 4, 0, 30, false, false, true}},          // total ÷ users
		{4096, 20, noisy, want{"", 8, 4096, 20.1, false, false, false}}, // the largest count that meets it
		{1024, 20, fallback, want{"", 1, 1024, 30, false, false, false}},
		{1024, 20, mixed, want{withoutPer, 4, 1024, 25, false, false, true}},
		{1024, 26, mixed, want{"", 1, 1024, 30, false, false, false}},
		{0, 20, three, want{wide, 16, 0, 20.5, false, false, false}},
		{0, 21, three, want{fastest, 8, 0, 25, false, false, false}},
		{4096, 5, queued, want{"", 0, 8192, 0, true, false, false}},
		{0, 5, queued, want{"", 1, 0, 50, false, false, false}},
	} {
		got := planAnswers(t, s, tc.ctx, tc.need, tc.model)[tc.model]
		w := tc.want
		if got.MaxUsers != w.users || got.ContextUsed != w.used || got.PerRequestTPS != w.speed ||
			got.Raised != w.raised || got.Short != w.short || got.Derived != w.derived ||
			w.run != "" && got.RunID != w.run || w.users == 0 && got.RunID != "" || w.users > 0 && got.RunID == "" {
			t.Errorf("%s at %d, %g tok/s: %+v, want %+v", tc.model, tc.ctx, tc.need, got, w)
		}
	}
	answers := planAnswers(t, s, 0, 20, qwen)
	if got := answers[qwen]; got.ModelName == "" || got.EngineName != "vLLM" || got.QuantizationName == "" || got.Key.ModelBase == "" {
		t.Errorf("names: %+v", got)
	}
	if none, err := s.PlanSetups(context.Background(), "no-such-gpu", 0, 1); err != nil || len(none) != 0 {
		t.Errorf("unmeasured hardware: %d setups, %v", len(none), err)
	}
}

func TestPlanRuns(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	a := storetest.MustInsertRun(t, s, planRun("Qwen/Qwen3.5-4B-FP8", "", true, map[int]map[int]float64{16384: {1: 48, 2: 43.5}}), "a")
	b := storetest.MustInsertRun(t, s, planRun("meta-llama/Llama-3.1-8B-FP8", "", false, map[int]map[int]float64{0: {4: 30}}), "b")
	runs, err := s.PlanRuns(ctx, []plan.CellRef{
		{RunID: a, Context: 16384, Concurrency: 2}, {RunID: b, Concurrency: 4}, {RunID: "nosuchrun", Concurrency: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[a].Engine.LaunchCommand != "vllm serve Qwen/Qwen3.5-4B-FP8" || runs[b].Hardware.VRAMGB != 12 {
		t.Fatalf("PlanRuns: %+v", runs)
	}
	if c := runs[a].Decode; len(c) != 1 || c[0].Concurrency != 2 || *c[0].PerRequestTPS != 43.5 || *c[0].TotalTPS != 87 ||
		*c[0].TTFTms != 100 || c[0].Status != run.Valid {
		t.Errorf("the cell asked of %s: %+v", a, c)
	}
	if c := runs[b].Decode; len(c) != 1 || c[0].PerRequestTPS != nil || *c[0].TotalTPS != 120 {
		t.Errorf("the cell asked of %s: %+v", b, c)
	}
}
