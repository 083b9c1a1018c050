package calculator

import "testing"

// The grid is Calculate at every cell: the seed setup's corner cell
// is its 72.8 tok/s, totals grow with concurrency and fall with context,
// and cells that do not fit say so.
func TestGrid(t *testing.T) {
	in := Input{GPU: mustGPU(t, "rtx-3060-12gb"), Arch: mustModel(t, "Qwen/Qwen3.5-4B"),
		Weights: prec("fp8"), Head: prec("bf16"), KV: "int4"}
	g := Grid(in, Contexts, Concurrencies)
	if len(g) != len(Contexts) || len(g[0]) != len(Concurrencies) {
		t.Fatalf("grid %d×%d", len(g), len(g[0]))
	}
	near(t, "0 × 1", g[0][0].Bound.TotalTPS, 72.8, 0.01)
	if g[0][1].Bound.TotalTPS <= g[0][0].Bound.TotalTPS || g[1][0].Bound.TotalTPS >= g[0][0].Bound.TotalTPS {
		t.Error("totals must grow with concurrency and fall with context")
	}
	last := g[len(g)-1][len(g[0])-1]
	if last.Fits || !g[0][0].Fits {
		t.Errorf("128K × 128 fits %v, 0 × 1 fits %v", last.Fits, g[0][0].Fits)
	}
}
