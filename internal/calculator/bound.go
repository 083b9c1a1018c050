package calculator

import "math"

// Input is one calculation: a deployment and the load on it.
type Input struct {
	GPU GPU
	// Count is how many GPUs share the model (tensor parallel, taken as
	// ideal: bandwidth, memory and compute add up); 0 means 1.
	Count int
	Arch  Arch
	// Weights is the format of the layers' weights; Head that of the
	// embedding and lm_head, which quantized exports often keep in BF16.
	Weights, Head Precision
	// KV is the cache format's code (KVPrecisions).
	KV string
	// Context is the tokens already in each request; Concurrency the
	// requests decoding together (0 means 1).
	Context, Concurrency int
	// SpecTokens is the draft tokens proposed per step, Acceptance the
	// chance each is accepted (given the ones before it were).
	SpecTokens int
	Acceptance float64
}

func (in Input) count() int { return max(in.Count, 1) }

// Bound is the decode speed the deployment cannot exceed.
type Bound struct {
	// TotalTPS is tokens per second over all requests, PerRequestTPS one
	// request's share.
	TotalTPS, PerRequestTPS float64
	// MemoryTPS and ComputeTPS are the two limits; ComputeTPS is 0 when
	// the GPU's rate for the format is not known.
	MemoryTPS, ComputeTPS float64
	// BoundBy is "memory" or "compute", whichever is lower.
	BoundBy string
	// TokensPerStep is the tokens one request gains per step (1 without
	// speculation); BytesPerStepGB what one step reads and writes.
	TokensPerStep, BytesPerStepGB float64
	// FLOPsPerStep is one step's arithmetic; TFLOPS the rate it was held to.
	FLOPsPerStep, TFLOPS float64
}

// Result is a calculation's answer.
type Result struct {
	Memory Memory
	Bound  Bound
}

// Calculate is the memory and the decode bound of in.
func Calculate(in Input) Result {
	in.Concurrency = max(in.Concurrency, 1)
	p := in.Arch.Count()
	return Result{Memory: memoryFor(in, p), Bound: boundFor(in, p)}
}

// boundOf is Calculate(in).Bound for an arch whose counts p are known,
// without the memory, which a cell's bound does not need.
func boundOf(in Input, p Params) Bound {
	in.Concurrency = max(in.Concurrency, 1)
	return boundFor(in, p)
}

// TokensPerStep is the expected tokens a request gains per step with k
// draft tokens each accepted with probability a: 1 + a + a² + … + a^k.
func TokensPerStep(k int, a float64) float64 {
	if k <= 0 {
		return 1
	}
	a = math.Min(math.Max(a, 0), 1)
	if a == 1 {
		return float64(k + 1)
	}
	return (1 - math.Pow(a, float64(k+1))) / (1 - a)
}

// expertsTouched is the distinct experts a MoE layer reads in a step that
// routes n tokens to topK of e experts each, taking routing as uniform.
// One token reads topK; a large batch reads nearly all.
func expertsTouched(e, topK int, n float64) float64 {
	if e == 0 {
		return 0
	}
	return float64(e) * (1 - math.Pow(1-float64(topK)/float64(e), n))
}

func boundFor(in Input, p Params) Bound {
	b := Bound{TokensPerStep: TokensPerStep(in.SpecTokens, in.Acceptance)}
	batch := float64(in.Concurrency)
	// Every step runs the k drafts and the token after them through the
	// model, accepted or not.
	verified := batch * float64(in.SpecTokens+1)
	kvb, _ := kvBytes(in.KV)
	weights := p.Head*in.Head.Bytes + (p.Dense+p.Expert*expertsTouched(p.Experts, p.TopK, verified))*in.Weights.Bytes
	perSeq := in.Arch.KVBytes(in.Context, kvb) + 2*in.Arch.StateBytesPerSeq()
	bytes := weights + batch*perSeq
	b.BytesPerStepGB = bytes / 1e9
	n := float64(in.count())
	b.MemoryTPS = in.GPU.BandwidthGBs * 1e9 * n / bytes * batch * b.TokensPerStep

	b.FLOPsPerStep = 2*p.Active()*verified + in.Arch.attentionFLOPs(in.Context)*verified
	b.TFLOPS = in.GPU.tflops(in.Weights.Compute)
	if b.TFLOPS > 0 {
		b.ComputeTPS = b.TFLOPS * 1e12 * n / b.FLOPsPerStep * batch * b.TokensPerStep
	}
	b.TotalTPS, b.BoundBy = b.MemoryTPS, "memory"
	if b.ComputeTPS > 0 && b.ComputeTPS < b.MemoryTPS {
		b.TotalTPS, b.BoundBy = b.ComputeTPS, "compute"
	}
	b.PerRequestTPS = b.TotalTPS / batch
	return b
}

// attentionFLOPs is one token's attention arithmetic over ctx cached
// tokens: scores and weighted values, 2 × 2 FLOPs per head dimension.
func (a Arch) attentionFLOPs(ctx int) float64 {
	dim := float64(a.HeadDim)
	if a.MLA() {
		dim = float64(a.KVLoRARank + a.QKRopeDim)
	}
	local := ctx
	if a.Window > 0 && a.Window < ctx {
		local = a.Window
	}
	tokens := float64(a.count(LayerFull)*ctx + a.count(LayerSliding)*local)
	return 4 * float64(a.QHeads) * dim * tokens
}

// tflops is the dense tensor rate for matrix products in a format's
// compute precision, falling back to a slower path the GPU does have:
// FP4 → FP8 → 16-bit (FP32 accumulate, what BF16 kernels use) → FP32.
func (g GPU) tflops(compute string) float64 {
	chain := []float64{g.FP16, g.FP16Acc16, g.FP32}
	switch compute {
	case "fp8":
		chain = append([]float64{g.FP8}, chain...)
	case "fp4":
		chain = append([]float64{g.FP4, g.FP8}, chain...)
	}
	for _, v := range chain {
		if v > 0 {
			return v
		}
	}
	return 0
}

// TFLOPS16 is the GPU's dense 16-bit matrix rate, or the slower path it
// falls back to when that is not published (FP32).
func (g GPU) TFLOPS16() float64 { return g.tflops("fp16") }
