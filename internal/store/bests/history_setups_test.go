package bests_test

import (
	"context"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestSetupVersionsFollowRankableRuns: a setup's versions, read from its
// browse groups, are those of its rankable runs. A version seen only above
// the physical bound, only in a quick run, or only in a hidden run is no
// version of its history, and hiding the one run of a version takes it
// out of the report's list and the entity page's setups.
func TestSetupVersionsFollowRankableRuns(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	const m, gpu = "Qwen/Qwen3-8B", "RTX 4090"
	version := func(v string, min int, change func(*run.Run)) *run.Run {
		r := storetest.CellRun(m, gpu, "vllm", run.Valid, float64(100+min), 50, min)
		r.Engine.Version = v
		if change != nil {
			change(r)
		}
		return r
	}
	first := storetest.MustInsertRun(t, s, version("0.8.0", 1, nil), "v1")
	storetest.MustInsertRun(t, s, version("0.8.0", 2, nil), "v1b")
	second := storetest.MustInsertRun(t, s, version("0.9.0", 3, nil), "v2")
	storetest.MustInsertRun(t, s, version("0.10.0", 4, func(r *run.Run) { r.Flags = []string{run.FlagAboveBound} }), "above")
	storetest.MustInsertRun(t, s, version("0.11.0", 5, func(r *run.Run) { r.Profile = "quick" }), "quick")
	hidden := storetest.MustInsertRun(t, s, version("0.12.0", 6, nil), "hidden")
	if err := s.HideRun(ctx, hidden); err != nil {
		t.Fatal(err)
	}

	versions := func() []string {
		t.Helper()
		_, _, vs, err := s.SetupVersions(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(vs)
		return vs
	}
	setups := func() []bests.Setup {
		t.Helper()
		list, err := s.SetupsWithHistory(ctx, bests.KindHardware, "rtx-4090-24gb", 10)
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	if got, want := versions(), []string{"0.8.0", "0.9.0"}; !slices.Equal(got, want) {
		t.Errorf("versions %v, want %v", got, want)
	}
	if got := setups(); len(got) != 1 || got[0].Versions != 2 || got[0].Engine != "vllm" {
		t.Errorf("setups with history %+v, want the one vLLM setup with 2 versions", got)
	}
	if err := s.HideRun(ctx, second); err != nil {
		t.Fatal(err)
	}
	if got, want := versions(), []string{"0.8.0"}; !slices.Equal(got, want) {
		t.Errorf("after hiding 0.9.0's run: versions %v, want %v", got, want)
	}
	if got := setups(); len(got) != 0 {
		t.Errorf("after hiding 0.9.0's run: setups with history %+v, want none", got)
	}
}
