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

// TestSeenWith: an entity page links exactly the identities its runs were
// seen with, by kind in the order asked, then by name; a hidden run's
// identities go when no other run holds them; an engine's versions count
// their runs.
func TestSeenWith(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	storetest.MustInsertRun(t, s, storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, 50, 100, 1), "a")
	storetest.MustInsertRun(t, s, storetest.CellRun("Qwen/Qwen3-8B", "RTX 3060", "vLLM", run.Valid, 20, 100, 2), "b")
	odd := storetest.CellRun("meta-llama/Llama-3.1-8B-Instruct", "RTX 4090", "SGLang", run.Valid, 40, 100, 3)
	odd.Engine.Version = "0.4.1"
	oddID := storetest.MustInsertRun(t, s, odd, "c")
	seen := func(kind, slug string, kinds ...string) []string {
		t.Helper()
		found, err := s.SeenWith(ctx, kind, slug, kinds)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range found {
			out = append(out, f.Kind+":"+f.Slug+"="+f.Name)
		}
		return out
	}
	check := func(step string, got []string, want ...string) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: %q, want %q", step, got, want)
		}
	}
	check("the 4090", seen(bests.KindHardware, "rtx-4090-24gb", bests.KindEngine, bests.KindModelBase),
		"engine:sglang=SGLang", "engine:vllm=vLLM",
		"model_base:llama-3-1-8b-instruct=Llama-3.1-8B-Instruct", "model_base:qwen3-8b=Qwen3-8B")
	check("Qwen3-8B", seen(bests.KindModelBase, "qwen3-8b", bests.KindHardware, bests.KindEngine),
		"hardware:rtx-3060-24gb=RTX 3060 24GB", "hardware:rtx-4090-24gb=RTX 4090 24GB", "engine:vllm=vLLM")
	versions, err := s.EngineVersions(ctx, "vllm")
	if err != nil || len(versions) != 1 || versions[0] != (bests.VersionRuns{Version: "0.32.0", Runs: 2}) {
		t.Errorf("EngineVersions(vllm) = %+v, %v; want 0.32.0 with 2 runs", versions, err)
	}
	if err := s.HideRun(ctx, oddID); err != nil {
		t.Fatal(err)
	}
	check("the 4090 after hiding the SGLang run", seen(bests.KindHardware, "rtx-4090-24gb", bests.KindEngine, bests.KindModelBase),
		"engine:vllm=vLLM", "model_base:qwen3-8b=Qwen3-8B")
	if _, err := s.SeenWith(ctx, bests.KindHardware, "x", []string{bests.KindHardware}); err == nil {
		t.Error("SeenWith a kind with itself: no error")
	}
}
