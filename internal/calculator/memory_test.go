package calculator

import "testing"

// Llama-3.1-8B in BF16 on one RTX 4090: 16 GB of weights leave room for
// one request at 32K (4.3 GB of KV each) in 90% of 24 GB; the 70B does not
// fit at all; two cards hold two requests' more.
func TestMemoryFits(t *testing.T) {
	in := Input{GPU: mustGPU(t, "rtx-4090-24gb"), Arch: mustModel(t, "meta-llama/Llama-3.1-8B"),
		Weights: prec("bf16"), Head: prec("bf16"), KV: "bf16", Context: 32768, Concurrency: 2}
	m := Calculate(in).Memory
	near(t, "weights GB", m.WeightsGB, 16.06, 0.005)
	near(t, "KV GB per request", m.KVGBPerRequest, 4.295, 0.005)
	if m.Fits || m.MaxConcurrency != 1 {
		t.Errorf("fits %v, max concurrency %d; want false, 1", m.Fits, m.MaxConcurrency)
	}
	in.Count = 2
	if m := Calculate(in).Memory; !m.Fits || m.MaxConcurrency != 6 {
		t.Errorf("two GPUs: fits %v, max %d; want true, 6", m.Fits, m.MaxConcurrency)
	}
	in.Count, in.Arch = 1, mustModel(t, "meta-llama/Llama-3.1-70B")
	if m := Calculate(in).Memory; m.Fits || m.MaxConcurrency != 0 {
		t.Errorf("70B: fits %v, max %d; want false, 0", m.Fits, m.MaxConcurrency)
	}
	in.Arch, in.Context = mustModel(t, "meta-llama/Llama-3.1-8B"), 0
	if m := Calculate(in).Memory; m.MaxConcurrency != -1 {
		t.Errorf("context 0: max %d, want -1 (no limit from the cache)", m.MaxConcurrency)
	}
}

// A MoE model reads more experts as the batch grows: Qwen3-30B-A3B reads
// 8 of 128 per layer for one token and almost all for 64 requests, so the
// bytes per step grow far more than a dense model's.
func TestMoEBatchTouchesMoreExperts(t *testing.T) {
	near(t, "one token", expertsTouched(128, 8, 1), 8, 1e-9)
	if n := expertsTouched(128, 8, 64); n < 124 || n > 128 {
		t.Errorf("64 tokens touch %v experts, want nearly all 128", n)
	}
	in := Input{GPU: mustGPU(t, "h100-sxm-80gb"), Arch: mustModel(t, "Qwen/Qwen3-30B-A3B"),
		Weights: prec("bf16"), Head: prec("bf16"), KV: "bf16", Concurrency: 1}
	one := Calculate(in).Bound.BytesPerStepGB
	in.Concurrency = 64
	many := Calculate(in).Bound.BytesPerStepGB
	if many < 7*one {
		t.Errorf("bytes per step %v GB at 64 vs %v at 1: experts not counted", many, one)
	}
}

// At a large batch the arithmetic binds before the bandwidth: Llama-3.1-8B
// at 512 requests on an H100 needs 8.2 TFLOP a step, 989 TFLOPS give ≈120
// steps/s where the bandwidth would give ≈200.
func TestComputeBoundBinds(t *testing.T) {
	in := Input{GPU: mustGPU(t, "h100-sxm-80gb"), Arch: mustModel(t, "meta-llama/Llama-3.1-8B"),
		Weights: prec("bf16"), Head: prec("bf16"), KV: "bf16", Concurrency: 512}
	b := Calculate(in).Bound
	if b.BoundBy != "compute" || b.TotalTPS != b.ComputeTPS || b.ComputeTPS >= b.MemoryTPS {
		t.Fatalf("bound by %s: %+v", b.BoundBy, b)
	}
	near(t, "compute tok/s", b.ComputeTPS, 989e12/(2*7.5e9*512)*512, 0.03)
	near(t, "per request", b.PerRequestTPS, b.TotalTPS/512, 1e-9)
}
