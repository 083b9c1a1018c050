package store_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestGetRunReportMatches: a report's one read gives what GetRun and
// SetupVersions give apart, for runs with and without earlier versions, a
// quantized variant whose history goes by its base model, and a quick
// run; a hidden or missing run is not found.
func TestGetRunReportMatches(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	insert := func(model, version string, min int, change func(*run.Run)) string {
		r := storetest.CellRun(model, "RTX 4090", "vllm", run.Valid, float64(100+min), 50, min)
		r.Engine.Version = version
		if change != nil {
			change(r)
		}
		return storetest.MustInsertRun(t, s, r, model+version+string(rune('a'+min)))
	}
	ids := []string{
		insert("Qwen/Qwen3-8B", "0.8.0", 1, nil),
		insert("Qwen/Qwen3-8B", "0.9.0", 2, nil),
		insert("Qwen/Qwen3-8B-AWQ", "0.10.0", 3, func(r *run.Run) { r.Engine.Quantization = "awq" }),
		insert("Qwen/Qwen3-8B", "0.11.0", 4, func(r *run.Run) { r.Profile = "quick" }),
		insert("meta-llama/Llama-3.1-8B", "", 5, nil),
	}
	for _, id := range ids {
		got, err := s.GetRunReport(ctx, id)
		if err != nil {
			t.Fatalf("GetRunReport(%s): %v", id, err)
		}
		want, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Run, want) {
			t.Errorf("%s: run\n%+v\nwant\n%+v", id, got.Run, want)
		}
		q, version, versions, err := s.SetupVersions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(versions)
		if id == ids[1] && len(versions) < 2 {
			t.Errorf("%s: versions %v, want the setup's two", id, versions)
		}
		slices.Sort(got.Versions)
		if got.Setup != q || got.Version != version || !slices.Equal(got.Versions, versions) {
			t.Errorf("%s: setup %+v %q %v, want %+v %q %v", id, got.Setup, got.Version, got.Versions, q, version, versions)
		}
	}
	if err := s.HideRun(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{ids[0], "nosuchrun0"} {
		if _, err := s.GetRunReport(ctx, id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("GetRunReport(%s) = %v, want ErrNotFound", id, err)
		}
	}
}
