package calculator

import "testing"

// The seed run's setup, Qwen3.5-4B with FP8 weights and an int4 KV cache on
// an RTX 3060 12GB, against the bounds computed by hand from the model's
// config (lm_head in BF16 / everything in FP8).
func TestWorkedExampleQwen35On3060(t *testing.T) {
	base := Input{GPU: mustGPU(t, "rtx-3060-12gb"), Arch: mustModel(t, "Qwen/Qwen3.5-4B"),
		Weights: prec("fp8"), KV: "int4"}
	for _, c := range []struct {
		ctx, conc         int
		bf16Head, fp8Head float64
	}{
		{0, 1, 72.8, 83.6},
		{0, 8, 508, 573},
		{32768, 1, 69.1, 78.7},
	} {
		for _, h := range []struct {
			head string
			want float64
		}{{"bf16", c.bf16Head}, {"fp8", c.fp8Head}} {
			in := base
			in.Context, in.Concurrency, in.Head = c.ctx, c.conc, prec(h.head)
			r := Calculate(in)
			near(t, "total tok/s "+h.head+" head", r.Bound.TotalTPS, h.want, 0.01)
			if r.Bound.BoundBy != "memory" {
				t.Errorf("ctx %d × %d bound by %s, want memory", c.ctx, c.conc, r.Bound.BoundBy)
			}
		}
	}
	// The measured 63.5 tok/s at context 0 × 1 sits below both bounds.
	in := base
	in.Head = prec("bf16")
	if r := Calculate(in); r.Bound.TotalTPS < 63.5 {
		t.Errorf("bound %.1f below the measured 63.5", r.Bound.TotalTPS)
	}
}

// The seed setup's compute check by hand: at 8 requests with 2 drafts (3
// verified tokens), one step is ≈202 GFLOP, ≈126 steps/s at 25.5 TFLOPS.
func TestWorkedExampleComputeCheck(t *testing.T) {
	in := Input{GPU: mustGPU(t, "rtx-3060-12gb"), Arch: mustModel(t, "Qwen/Qwen3.5-4B"),
		Weights: prec("fp8"), Head: prec("bf16"), KV: "int4", Concurrency: 8, SpecTokens: 2, Acceptance: 0}
	b := Calculate(in).Bound
	near(t, "FLOPs per step", b.FLOPsPerStep, 202e9, 0.01)
	near(t, "steps/s at the compute rate", b.TFLOPS*1e12/b.FLOPsPerStep, 126, 0.01)
	if b.TFLOPS != 25.5 {
		t.Errorf("FP8 weights on Ampere computed at %v TFLOPS, want the 16-bit 25.5", b.TFLOPS)
	}
}

// LocalMaxxing's calculator test: 4 drafts at acceptance 0.8 give 3.3616
// tokens per step.
func TestTokensPerStepMatchesLocalMaxxing(t *testing.T) {
	near(t, "k=4 a=0.8", TokensPerStep(4, 0.8), 3.3616, 1e-6)
	if TokensPerStep(3, 1) != 4 || TokensPerStep(0, 0.9) != 1 {
		t.Error("full acceptance must give k+1 tokens, no speculation 1")
	}
}

// Baseten's guide: an A10's ops:byte ratio is 208.3 (125 TFLOPS over
// 600 GB/s); kipply's A100 figure is 208 with 1.5 TB/s (ours is 1555 GB/s).
func TestOpsPerByteMatchesPublished(t *testing.T) {
	a10 := mustGPU(t, "a10-24gb")
	near(t, "A10 ops:byte", a10.FP16*1e12/(a10.BandwidthGBs*1e9), 208.3, 0.001)
	a100 := mustGPU(t, "a100-40gb")
	near(t, "A100 ops:byte", a100.FP16*1e12/(a100.BandwidthGBs*1e9), 208, 0.04)
}

// KV cache per token with a 2-byte cache, as the calculators and config
// dumps publish it (KiB, growing layers only).
func TestKVPerTokenMatchesPublished(t *testing.T) {
	for id, kib := range map[string]float64{
		"meta-llama/Llama-3.1-8B": 128, "meta-llama/Llama-3.1-70B": 320, "Qwen/Qwen3-8B": 144,
		"Qwen/Qwen3-14B": 160, "Qwen/Qwen3-32B": 256, "Qwen/Qwen3-30B-A3B": 96,
		"Qwen/Qwen3-235B-A22B": 188, "Qwen/Qwen3.5-4B": 32, "openai/gpt-oss-20b": 24,
		"openai/gpt-oss-120b": 36, "deepseek-ai/DeepSeek-V3": 68.6, "zai-org/GLM-4.5-Air": 184,
		"mistralai/Mistral-Small-24B-Instruct-2501": 160, "google/gemma-3-27b-it": 80,
	} {
		a := mustModel(t, id)
		// One token more beyond the window grows only the full layers.
		far := a.KVBytes(1<<20+1, 2) - a.KVBytes(1<<20, 2)
		near(t, id+" KV KiB/token", far/1024, kib, 0.001)
		near(t, id+" KVGrowth", a.KVGrowth(2), far, 1e-9)
	}
	// Sliding layers stop at the window: Gemma 3's 52 local layers hold
	// ≤416 MiB at 1024 tokens, gpt-oss-20b's ≤3 MiB at 128.
	g := mustModel(t, "google/gemma-3-27b-it")
	near(t, "Gemma 3 window MiB", (g.KVBytes(1<<20, 2)-80*1024*(1<<20))/(1<<20), 416, 0.001)
	o := mustModel(t, "openai/gpt-oss-20b")
	near(t, "gpt-oss-20b window MiB", (o.KVBytes(4096, 2)-24*1024*4096)/(1<<20), 3, 0.001)
}
