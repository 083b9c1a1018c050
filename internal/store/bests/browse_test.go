package bests_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestLeaderboard(t *testing.T) {
	s, _ := dbtest.New(t)
	const m = "Qwen/Qwen3-8B"
	a1 := storetest.MustInsertRun(t, s, storetest.CellRun(m, "RTX 4090", "vllm", run.Valid, 100, 50, 1), "a1")
	a2 := storetest.MustInsertRun(t, s, storetest.CellRun(m, "NVIDIA GeForce RTX 4090", "vLLM", run.Valid, 120, 40, 5), "a2") // same group as a1, better
	b1 := storetest.MustInsertRun(t, s, storetest.CellRun(m, "RTX 3090", "vllm", run.Valid, 120, 30, 2), "b1")                // ties a2, uploaded earlier
	c1 := storetest.MustInsertRun(t, s, storetest.CellRun(m, "RTX 5090", "vllm", run.Queued, 300, 10, 3), "c1")
	storetest.MustInsertRun(t, s, storetest.CellRun(m, "H100 PCIe", "vllm", run.Failed, 500, 5, 4), "d1")
	storetest.MustInsertRun(t, s, storetest.CellRun(m, "L40S", "vllm", run.OverCapacity, 600, 5, 6), "e1")
	e2 := storetest.MustInsertRun(t, s, storetest.CellRun("Qwen/Qwen3-8B-AWQ", "RTX 4090", "sglang", run.Valid, 90, 20, 7), "e2")
	_ = a1

	q := bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1}
	if got, want := storetest.LeaderIDs(t, s, q), []string{b1, a2, e2}; !slices.Equal(got, want) {
		t.Errorf("total tok/s ranking = %v, want %v (ties to the earlier upload; one row per group; failed and over capacity never)", got, want)
	}
	q.Queued = true
	if got, want := storetest.LeaderIDs(t, s, q), []string{c1}; !slices.Equal(got, want) {
		t.Errorf("queued = %v, want %v", got, want)
	}
	q = bests.LeaderQuery{Metric: bests.MetricTTFT, Concurrency: 1}
	if got, want := storetest.LeaderIDs(t, s, q), []string{e2, b1, a2}; !slices.Equal(got, want) {
		t.Errorf("TTFT ranking = %v, want %v (lower first)", got, want)
	}
	// Filters: a group identity reads best_cells; a base model spans its variants.
	q = bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Filter: bests.RunFilter{Hardware: "rtx-4090-24gb"}}
	if got, want := storetest.LeaderIDs(t, s, q), []string{a2, e2}; !slices.Equal(got, want) {
		t.Errorf("hardware filter = %v, want %v", got, want)
	}
	q.Filter = bests.RunFilter{Model: "qwen3-8b", Engine: "sglang"}
	if got, want := storetest.LeaderIDs(t, s, q), []string{e2}; !slices.Equal(got, want) {
		t.Errorf("base model + engine filter = %v, want %v", got, want)
	}
	// A submitter filter ranks the matching runs' own cells, one per group.
	q.Filter = bests.RunFilter{Submitter: "sandberg"}
	if got, want := storetest.LeaderIDs(t, s, q), []string{b1, a2, e2}; !slices.Equal(got, want) {
		t.Errorf("submitter filter = %v, want %v", got, want)
	}
	q.Filter = bests.RunFilter{EngineVersion: "nope"}
	if got := storetest.LeaderIDs(t, s, q); len(got) != 0 {
		t.Errorf("unknown engine version = %v, want none", got)
	}
	// The limit takes the best rows, and each row names its identities.
	q = bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Limit: 2}
	if got, want := storetest.LeaderIDs(t, s, q), []string{b1, a2}; !slices.Equal(got, want) {
		t.Errorf("limit 2 = %v, want %v", got, want)
	}
	rows, err := s.Leaderboard(context.Background(), q)
	if err != nil || len(rows) != 2 {
		t.Fatalf("Leaderboard: %v, %v", rows, err)
	}
	for _, r := range rows {
		if r.ModelName != m || r.HardwareName == "" || r.HardwareName == r.HardwareSlug || r.EngineName == "" || r.Quantization == "" {
			t.Errorf("row %s names: model %q, hardware %q (%s), engine %q, quantization %q",
				r.RunID, r.ModelName, r.HardwareName, r.HardwareSlug, r.EngineName, r.Quantization)
		}
	}
	// Another grid point has nothing.
	if got := storetest.LeaderIDs(t, s, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 8}); len(got) != 0 {
		t.Errorf("0×8 = %v, want none", got)
	}
	best, err := s.BestAt(context.Background(), bests.KindModelBase, "qwen3-8b", []bests.GridPoint{{Context: 0, Concurrency: 1}, {Context: 0, Concurrency: 8}})
	if err != nil || len(best) != 1 || best[bests.GridPoint{Context: 0, Concurrency: 1}].RunID != b1 {
		t.Errorf("BestAt = %+v, %v; want b1 at 0×1 only", best, err)
	}
	best, err = s.BestAt(context.Background(), bests.KindSubmitter, "sandberg", []bests.GridPoint{{Context: 0, Concurrency: 1}})
	if err != nil || best[bests.GridPoint{Context: 0, Concurrency: 1}].RunID != b1 {
		t.Errorf("BestAt(submitter) = %+v, %v; want b1", best, err)
	}
	groups, err := s.Groups(context.Background(), bests.KindHardware, "rtx-4090-24gb")
	if err != nil || len(groups) != 2 || groups[0].Runs != 2 {
		t.Errorf("Groups(rtx-4090-24gb) = %+v, %v; want 2 groups, the first with 2 runs", groups, err)
	}
}

func TestListRunsFiltersAndSorts(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	ids := map[string]string{}
	for i, spec := range []struct {
		key, model, gpu, engine string
		total                   float64
	}{
		{"k0", "Qwen/Qwen3-8B", "RTX 3060", "vllm", 50},
		{"k1", "RedHatAI/Qwen3-8B-FP8-dynamic", "NVIDIA GeForce RTX 3060", "vllm", 70},
		{"k2", "Qwen/Qwen3-8B", "RTX 4090", "llama.cpp", 90},
		{"k3", "openai/gpt-oss-20b", "RTX 4090", "sglang", 0},
	} {
		st := run.Valid
		if spec.total == 0 {
			st = run.Failed
		}
		r := storetest.CellRun(spec.model, spec.gpu, spec.engine, st, spec.total, 10, i)
		r.Hardware.VRAMGB = 0
		ids[spec.key] = storetest.MustInsertRun(t, s, r, spec.key)
	}
	list := func(f bests.RunFilter, sort bests.RunSort) []string {
		t.Helper()
		items, _, err := s.ListRuns(ctx, f, sort, nil, 50)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range items {
			for k, id := range ids {
				if id == it.ID {
					got = append(got, k)
				}
			}
		}
		return got
	}
	for _, tt := range []struct {
		f    bests.RunFilter
		sort bests.RunSort
		want []string
	}{
		{bests.RunFilter{}, bests.SortNewest, []string{"k3", "k2", "k1", "k0"}},
		{bests.RunFilter{}, bests.SortPeak, []string{"k2", "k1", "k0", "k3"}},
		{bests.RunFilter{}, bests.SortSingle, []string{"k2", "k1", "k0", "k3"}},
		{bests.RunFilter{Hardware: "rtx-3060-12gb"}, bests.SortNewest, []string{"k1", "k0"}},
		{bests.RunFilter{Model: "qwen3-8b"}, bests.SortNewest, []string{"k2", "k1", "k0"}},
		{bests.RunFilter{Model: "qwen-qwen3-8b"}, bests.SortNewest, []string{"k2", "k0"}},
		{bests.RunFilter{Engine: "llama-cpp"}, bests.SortNewest, []string{"k2"}},
		{bests.RunFilter{EngineVersion: "0.32.0", Quantization: "fp8", Submitter: "sandberg"}, bests.SortNewest, []string{"k3", "k2", "k1", "k0"}},
		{bests.RunFilter{Submitter: "nobody"}, bests.SortNewest, nil},
	} {
		if got := list(tt.f, tt.sort); !slices.Equal(got, tt.want) {
			t.Errorf("ListRuns(%+v, %s) = %v, want %v", tt.f, tt.sort, got, tt.want)
		}
	}
	found, err := s.Search(ctx, "3060", 10)
	if err != nil || len(found) != 1 || found[0].Slug != "rtx-3060-12gb" {
		t.Errorf("Search(3060) = %+v, %v", found, err)
	}
	if found, _ := s.Search(ctx, "%", 10); len(found) != 0 {
		t.Errorf("Search(%%) = %+v, want nothing: %% is literal", found)
	}
}

// TestPaginationWhileInserting pages through the runs, two at a time, while
// another goroutine keeps uploading: every run that existed before the
// first page shows exactly once, in order, in every sort.
func TestPaginationWhileInserting(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	var before []string
	for i := range 25 {
		r := storetest.CellRun("m/model", "RTX 3060", "vllm", run.Valid, float64(10+i%7), 10, 0)
		r.UploadedAt = time.Time{} // now, as uploads are
		before = append(before, storetest.MustInsertRun(t, s, r, fmt.Sprintf("before-%d", i)))
	}
	for _, sort := range []bests.RunSort{bests.SortNewest, bests.SortPeak, bests.SortSingle} {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r := storetest.CellRun("m/model", "RTX 3060", "vllm", run.Valid, float64(i%11), 10, 0)
				r.UploadedAt = time.Time{}
				if _, _, err := s.InsertRun(ctx, r, fmt.Sprintf("during-%s-%d", sort, i), nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
		seen := map[string]int{}
		var after *bests.Cursor
		for pages := 0; ; pages++ {
			items, more, err := s.ListRuns(ctx, bests.RunFilter{}, sort, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, it := range items {
				seen[it.ID]++
			}
			if !more {
				break
			}
			c := items[len(items)-1].Cursor(sort)
			if after, err = bests.DecodeCursor(c.Encode()); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		wg.Wait()
		for id, n := range seen {
			if n > 1 {
				t.Errorf("%s: run %s shown %d times", sort, id, n)
			}
		}
		for _, id := range before {
			if seen[id] != 1 {
				t.Errorf("%s: run %s, stored before paging began, shown %d times", sort, id, seen[id])
			}
		}
	}
	if _, err := bests.DecodeCursor("not a cursor!"); err == nil {
		t.Error("DecodeCursor accepted garbage")
	}
}

// TestIdentityLists: each kind's identities by name, at most the limit,
// in one call; a kind with none is empty.
func TestIdentityLists(t *testing.T) {
	s, _ := dbtest.New(t)
	for i, gpu := range []string{"RTX 4090", "RTX 3090", "H100 PCIe"} {
		storetest.MustInsertRun(t, s, storetest.CellRun("Qwen/Qwen3-8B", gpu, "vllm", run.Valid, 100, 50, i), fmt.Sprint("i", i))
	}
	lists, err := s.IdentityLists(context.Background(), []string{bests.KindHardware, bests.KindEngine, "nothing"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	var hw []string
	for _, id := range lists[bests.KindHardware] {
		hw = append(hw, id.Name)
	}
	if len(hw) != 2 || !slices.IsSorted(hw) || !strings.HasPrefix(hw[0], "H100 PCIe") {
		t.Errorf("hardware = %q, want the first two of three by name, H100 first", hw)
	}
	if e := lists[bests.KindEngine]; len(e) != 1 || e[0].Slug != "vllm" {
		t.Errorf("engines = %+v, want vllm", e)
	}
	if n, ok := lists["nothing"]; !ok || len(n) != 0 {
		t.Errorf("unknown kind = %+v (present %v), want an empty list", n, ok)
	}
}
