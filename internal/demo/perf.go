package demo

import (
	"math"
	"math/rand/v2"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// setup is one simulated machine serving one model: everything the
// throughput model needs.
type setup struct {
	g     gpu
	count int
	m     model
	q     quant
	eng   string
	// eff is the share of peak bandwidth reached, jittered per run.
	eff float64
	// kvFactor is the KV cache's bytes relative to 16 bits (0.5: fp8).
	kvFactor   float64
	maxOut     int
	budget     int64
	maxRunning int
	// slots is llama.cpp's --parallel: more requests than slots queue.
	slots int
	// version, when set, is the engine version (a series run's); else
	// one is drawn.
	version string
}

// pickSetup chooses hardware, engine, model and quantisation that fit in
// memory. The first runs walk the GPU and model lists in order, so even a
// small demo covers all of them.
func pickSetup(rng *rand.Rand, i int) *setup {
	if s := seriesSetup(rng, i); s != nil {
		return s
	}
	g := gpus[i%len(gpus)]
	if i >= len(gpus) {
		g = gpus[rng.IntN(len(gpus))]
	}
	eng := g.Engines[rng.IntN(len(g.Engines))]
	first := i % len(models)
	if i >= len(models) {
		first = rng.IntN(len(models))
	}
	// Most machines have one GPU; the rest start from a random count and
	// grow until the model fits.
	start := 0
	if rng.Float64() < 0.4 {
		start = rng.IntN(len(g.Counts))
	}
	for _, count := range g.Counts[start:] {
		for k := range models {
			m := models[(first+k)%len(models)]
			qs := quants[eng]
			for _, j := range rng.Perm(len(qs)) {
				if s := newSetup(rng, g, count, m, qs[j], eng); s != nil {
					return s
				}
			}
		}
	}
	// Everything fits something: the smallest model at 4 bits on the
	// largest count of the GPU.
	for _, q := range quants[eng] {
		if s := newSetup(rng, g, g.Counts[len(g.Counts)-1], models[6], q, eng); s != nil {
			return s
		}
	}
	panic("demo: no model fits " + g.Name)
}

// newSetup returns the setup, or nil when the weights leave too little
// memory for a useful KV cache.
func newSetup(rng *rand.Rand, g gpu, count int, m model, q quant, eng string) *setup {
	s := &setup{g: g, count: count, m: m, q: q, eng: eng, kvFactor: 1,
		maxOut: []int{512, 1024, 2048, 4096}[rng.IntN(4)]}
	s.eff = g.Eff * engineEff[eng] * (1 + 0.06*rng.NormFloat64())
	if eng != "llama.cpp" && rng.Float64() < 0.4 {
		s.kvFactor = 0.5
	}
	util := 0.9
	if g.Type == run.UnifiedMemory {
		util = 0.75 // the OS keeps its share
	}
	freeGB := g.VRAMGB*float64(count)*util - m.Total*q.Bytes - 1.5*float64(count)
	if freeGB < 2 {
		return nil
	}
	s.budget = int64(freeGB * 1e9 / s.kvBytes())
	if s.budget < 16384 {
		return nil
	}
	switch eng {
	case "llama.cpp":
		s.slots = []int{1, 4, 8, 16}[rng.IntN(4)]
		s.budget = min(s.budget, max(int64(s.slots)*32768, 139264))
	case "sglang":
		s.maxRunning = []int{32, 64, 128}[rng.IntN(3)]
	}
	return s
}

// kvBytes is the KV cache's bytes per token.
func (s *setup) kvBytes() float64 { return s.m.KVKiB * 1024 * s.kvFactor }

// weightGB is the weights read per decode step by a batch of b: every
// weight of a dense model; the experts a batch routes to for a MoE
// (the expected number of distinct experts a batch touches, routing 8 of
// 128 experts per token).
func (s *setup) weightGB(b float64) float64 {
	if !s.m.MoE {
		return s.m.Total * s.q.Bytes
	}
	const experts, topK = 128.0, 8.0
	expert := (s.m.Total - s.m.Active) / (experts - topK)
	fixed := s.m.Active - topK*expert
	touched := experts * (1 - math.Pow(1-topK/experts, b))
	return (fixed + expert*touched) * s.q.Bytes
}

// stepSeconds is one decode step of b streams at context ctx: the slower
// of the memory and compute bounds, plus a fixed overhead per step.
func (s *setup) stepSeconds(ctx int, b float64) float64 {
	bw := s.g.BW * float64(s.count) * s.eff
	if s.count > 1 {
		bw *= 0.88 // tensor-parallel all-reduces
	}
	kvGB := b * float64(ctx+s.maxOut/2) * s.kvBytes() / 1e9
	mem := (s.weightGB(b) + kvGB) / bw
	flops := 2 * s.m.Active * 1e9 * b * (1 + float64(ctx)/65536)
	compute := flops / (s.g.TFLOPS * 1e12 * float64(s.count) * 0.5)
	overhead := 0.002 + 0.0015*float64(s.count-1)
	return math.Max(mem, compute) + overhead
}

// measure simulates one decode cell.
func (s *setup) measure(rng *rand.Rand, ctx, conc int) run.Measurement {
	var active float64 // requests decoding at once, on average
	switch {
	case s.slots > 0 && conc > s.slots:
		active = float64(s.slots)
	case s.budget > 0 && float64(int64(conc)*int64(ctx+s.maxOut)) > 0.6*float64(s.budget) && conc > 1:
		// Near the budget the scheduler preempts: fewer run at once.
		active = float64(conc) * (0.7 + 0.23*rng.Float64())
	case rng.Float64() < 0.03 && conc > 1:
		active = float64(conc) * 0.9
	default:
		active = float64(conc) * (0.97 + 0.03*rng.Float64())
	}
	jitter := 1 + 0.03*rng.NormFloat64()
	perReq := jitter / s.stepSeconds(ctx, math.Max(active, 1))
	total := perReq * active
	window := 30 + 0.4*rng.Float64()
	out := int64(total * window)
	ttft := 35 + 15*rng.Float64() + float64(ctx)/s.prefillRate(ctx)*1000*0.02
	return run.Measurement{
		Context: ctx, Concurrency: conc,
		Metrics: run.Metrics{TotalTPS: round1(total), PerRequestTPS: round1(perReq), TTFTms: round1(ttft),
			TBTms: round1(1000 / perReq), AvgActive: round2(active), OutputTokens: run.I(out), MeasuredS: round1(window)},
	}
}

// prefillRate is prompt tokens per second at ctx: compute-bound, falling
// as attention grows with the context.
func (s *setup) prefillRate(ctx int) float64 {
	mfu := 0.55
	if s.m.MoE {
		mfu = 0.3 // expert dispatch keeps MoE prefill far from peak
	}
	if s.eng == "llama.cpp" {
		mfu *= 0.7
	}
	return s.g.TFLOPS * 1e12 * float64(s.count) * mfu / (2 * s.m.Active * 1e9) / (1 + float64(ctx)/65536)
}

func (s *setup) prefill(rng *rand.Rand, ctx int) run.PrefillMeasurement {
	tps := s.prefillRate(ctx) * (1 + 0.04*rng.NormFloat64())
	return run.PrefillMeasurement{Context: ctx, PromptTPS: round1(tps), TTFTms: round1(float64(ctx) / tps * 1000),
		Completed: run.I(1)}
}

func round1(v float64) *float64 { return run.F(math.Round(v*10) / 10) }
func round2(v float64) *float64 { return run.F(math.Round(v*100) / 100) }
