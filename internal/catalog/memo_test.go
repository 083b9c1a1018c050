package catalog

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestMemoBounded: a memo never holds more than memoSize results, and
// Hardware and Model answer from theirs what they made.
func TestMemoBounded(t *testing.T) {
	var m memo[int, int]
	for i := range memoSize + 10 {
		m.put(i, i)
	}
	if len(m.m) > memoSize {
		t.Errorf("memo holds %d results, bound %d", len(m.m), memoSize)
	}
	if v, ok := m.get(memoSize + 5); !ok || v != memoSize+5 {
		t.Errorf("the newest result: %d %v", v, ok)
	}
	for _, h := range []run.Hardware{{GPUName: "NVIDIA GeForce RTX 3060", GPUCount: 1, VRAMGB: 12},
		{GPUName: "NVIDIA H100 80GB HBM3", GPUCount: 8}, {Type: run.CPUOnly, CPUName: "AMD EPYC 9654"}} {
		first, again := Hardware(h), Hardware(h)
		if first != hardware(h) || again != first || first.Slug == "" {
			t.Errorf("%+v: %+v then %+v, want %+v", h, first, again, hardware(h))
		}
	}
	for _, id := range []string{"RedHatAI/Qwen3.5-4B-FP8-dynamic", " Qwen/Qwen3.5-4B ", "x-Q4_K_M.gguf"} {
		wm, wb := modelOf(id)
		for range 2 {
			if m, b := Model(id); m != wm || b != wb || m.Slug == "" {
				t.Errorf("Model(%q) = %+v, %+v; want %+v, %+v", id, m, b, wm, wb)
			}
		}
	}
}
