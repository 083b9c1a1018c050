package bests_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestGroupCountsFollowHideAndDelete: a hidden or deleted run leaves its
// browse group's count (once), and a group with no run left goes, so entity
// pages neither overcount nor link to what nobody can see.
func TestGroupCountsFollowHideAndDelete(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	if err := s.CreateSubmitter(ctx, "Sandberg", ""); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 3 {
		r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, float64(50+i), 100, i)
		r.Submitter, r.SubmitterVerified = "Sandberg", true
		ids = append(ids, storetest.MustInsertRun(t, s, r, fmt.Sprintf("g%d", i)))
	}
	other := storetest.MustInsertRun(t, s, storetest.CellRun("Qwen/Qwen3-8B", "RTX 3060", "vLLM", run.Valid, 20, 100, 9), "other")
	counts := func() map[string]int64 {
		t.Helper()
		out := map[string]int64{}
		for _, hw := range []string{"rtx-4090-24gb", "rtx-3060-24gb"} {
			groups, err := s.Groups(ctx, bests.KindHardware, hw)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range groups {
				out[g.HardwareSlug] += g.Runs
			}
		}
		return out
	}
	want := func(step string, n4090, n3060 int64) {
		t.Helper()
		got := counts()
		if got["rtx-4090-24gb"] != n4090 || got["rtx-3060-24gb"] != n3060 {
			t.Errorf("%s: group counts %v, want 4090: %d, 3060: %d", step, got, n4090, n3060)
		}
		wantIdentityCounts(t, s, step, map[string]int64{"rtx-4090-24gb": n4090, "rtx-3060-24gb": n3060}, n4090+n3060)
	}
	want("stored", 3, 1)
	if err := s.HideRun(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	want("one hidden", 2, 1)
	if err := s.HideRun(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	want("hidden twice", 2, 1)
	if err := s.DeleteOwnedRun(ctx, ids[1], "Sandberg"); err != nil {
		t.Fatal(err)
	}
	want("one deleted", 1, 1)
	if err := s.HideRun(ctx, other); err != nil {
		t.Fatal(err)
	}
	want("the only run hidden", 1, 0)
	if groups, _ := s.Groups(ctx, bests.KindHardware, "rtx-3060-24gb"); len(groups) != 0 {
		t.Errorf("a group without runs is still linked: %+v", groups)
	}
}

// wantIdentityCounts checks the counts per identity against the group
// counts of a test whose runs all have engine vLLM 0.32.0: the hardware
// list (a hardware with no run is left out), the engine's and its
// version's counts.
func wantIdentityCounts(t *testing.T, s *store.Store, step string, hardware map[string]int64, all int64) {
	t.Helper()
	ctx := context.Background()
	listed, err := s.CountIdentities(ctx, bests.KindHardware)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, c := range listed {
		got[c.Slug] = c.Runs
	}
	for hw, n := range hardware {
		if got[hw] != n {
			t.Errorf("%s: CountIdentities(hardware) has %s with %d runs, want %d (%v)", step, hw, got[hw], n, listed)
		}
		if _, ok := got[hw]; n == 0 && ok {
			t.Errorf("%s: CountIdentities(hardware) lists %s with no run", step, hw)
		}
	}
	engines, err := s.CountIdentities(ctx, bests.KindEngine)
	if err != nil {
		t.Fatal(err)
	}
	if len(engines) != 1 || engines[0].Slug != "vllm" || engines[0].Runs != all {
		t.Errorf("%s: CountIdentities(engine) = %+v, want vllm with %d runs", step, engines, all)
	}
	versions, err := s.EngineVersions(ctx, "vllm")
	if err != nil {
		t.Fatal(err)
	}
	if len(versions) != 1 || versions[0] != (bests.VersionRuns{Version: "0.32.0", Runs: all}) {
		t.Errorf("%s: EngineVersions(vllm) = %+v, want 0.32.0 with %d runs", step, versions, all)
	}
}
