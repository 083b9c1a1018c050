package catalog

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestMemoized: Hardware and Model answer from their memos what they made.
func TestMemoized(t *testing.T) {
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
