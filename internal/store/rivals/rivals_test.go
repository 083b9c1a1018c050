package rivals_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/differs"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/rivals"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// seedLike is the seed-shaped run, rankable and not demo, of engine
// engine, every total tok/s scaled by f (the 0×2 cell queued, as the
// seed's peak cell is).
func seedLike(engine string, f float64) *run.Run {
	r := storetest.SeedRun()
	r.Profile, r.Demo, r.Engine.Name = "", false, engine
	for i := range r.Decode {
		c := &r.Decode[i]
		c.TotalTPS = run.F(*c.TotalTPS * f)
		if c.Context == 0 && c.Concurrency == 2 {
			c.Status = run.Queued
		}
	}
	return r
}

var cells = []rivals.Cell{{Context: 0, Concurrency: 1}, {Context: 0, Concurrency: 2}}

func fastest(t *testing.T, s *store.Store, id string) []string {
	t.Helper()
	rs, err := s.FastestOthers(context.Background(), id, cells)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, r.RunID)
	}
	return out
}

func TestFastestOthers(t *testing.T) {
	ctx := context.Background()
	s, _ := dbtest.New(t)
	seed := storetest.MustInsertRun(t, s, seedLike("vllm", 1), "seed")
	if got := fastest(t, s, seed); len(got) != 0 {
		t.Errorf("alone, rivals %v", got)
	}
	// A copy 1.1× faster on the same engine: the seed's rival, and the
	// seed the copy's runner-up (the copy holds its group's best).
	faster := storetest.MustInsertRun(t, s, seedLike("vllm", 1.1), "faster")
	if got := fastest(t, s, seed); !slices.Equal(got, []string{faster, faster}) {
		t.Errorf("seed's rivals %v, want the faster copy at both cells", got)
	}
	if got := fastest(t, s, faster); !slices.Equal(got, []string{seed, seed}) {
		t.Errorf("fastest run's rivals %v, want the runner-up", got)
	}
	// Another engine's run, faster still, is every other run's rival.
	other := storetest.MustInsertRun(t, s, seedLike("sglang", 1.3), "sglang")
	if got := fastest(t, s, seed); !slices.Equal(got, []string{other, other}) {
		t.Errorf("rivals %v, want the other engine's run", got)
	}
	if got := fastest(t, s, other); !slices.Equal(got, []string{faster, faster}) {
		t.Errorf("the fastest's rivals %v, want the other engine's best", got)
	}
	// Demo, quick and hidden runs are no rivals of a measured run.
	demo := seedLike("vllm", 5)
	demo.Demo = true
	storetest.MustInsertRun(t, s, demo, "demo")
	quick := seedLike("vllm", 5)
	quick.Profile = "quick"
	storetest.MustInsertRun(t, s, quick, "quick")
	if err := s.HideRun(ctx, other); err != nil {
		t.Fatal(err)
	}
	if got := fastest(t, s, seed); !slices.Equal(got, []string{faster, faster}) {
		t.Errorf("rivals %v, want the shown, measured copy", got)
	}
	if rs, err := s.FastestOthers(ctx, "nope", cells); err != nil || len(rs) != 0 {
		t.Errorf("unknown run: %v, %v", rs, err)
	}
}

// TestFastestOthersReadsIndexes: the runner-up's read goes through the
// group's index, not every run of the hardware.
func TestFastestOthersReadsIndexes(t *testing.T) {
	storetest.WantIndexesRead(t, []struct{ SQL, Index, Params string }{
		{rivals.FastestSQL, "runs_rival_idx", `'x', 0, 1`},
	})
}

// TestSeedAndKVCopy is the first check of the feature end to end below
// the web layer: the seed-shaped run and a copy whose launch command sets
// the KV cache to fp8 instead of int4_per_token_head, every total tok/s
// 1.1× higher. The copy is the seed's rival at its 0 × 1 and peak cells,
// and what differs lists the KV-cache flag first among the flags, with
// the gap at 0 × 1.
func TestSeedAndKVCopy(t *testing.T) {
	ctx := context.Background()
	s, _ := dbtest.New(t)
	const cmd = `vllm serve RedHatAI/Qwen3.5-4B-FP8-dynamic --max-num-seqs 128 --enable-prefix-caching ` +
		`--speculative-config {"method":"mtp","num_speculative_tokens":2} --kv-cache-dtype int4_per_token_head`
	seed := seedLike("vllm", 1)
	seed.Engine.LaunchCommand = cmd
	copied := seedLike("vllm", 1.1)
	copied.Engine.LaunchCommand = strings.Replace(cmd, "int4_per_token_head", "fp8", 1)
	seedID := storetest.MustInsertRun(t, s, seed, "seed")
	copyID := storetest.MustInsertRun(t, s, copied, "copy")

	this, err := s.GetRun(ctx, seedID)
	if err != nil {
		t.Fatal(err)
	}
	var cells []rivals.Cell
	for _, c := range differs.Cells(this) {
		cells = append(cells, rivals.Cell(c))
	}
	found, err := s.FastestOthers(ctx, seedID, cells)
	if err != nil || len(found) != len(cells) || len(cells) == 0 {
		t.Fatalf("rivals %+v of cells %v (%v)", found, cells, err)
	}
	other, err := s.GetRun(ctx, found[0].RunID)
	if err != nil || other.ID != copyID {
		t.Fatalf("rival %v, want the copy (%v)", found[0].RunID, err)
	}
	var flagRows []differs.Difference
	for _, d := range differs.Between(this, other) {
		if d.Field == differs.FieldFlag {
			flagRows = append(flagRows, d)
		}
	}
	if len(flagRows) == 0 || flagRows[0].Flag != "kv-cache-dtype" {
		t.Errorf("flags that differ %+v, want the KV-cache flag first", flagRows)
	}
	g, ok := differs.GapAt(this, other, differs.Cell{Context: 0, Concurrency: 1})
	if !ok || math.Abs(g.Percent()-(1/1.1-1)*100) > 1e-9 {
		t.Errorf("gap at 0 × 1 %+v", g)
	}
}
