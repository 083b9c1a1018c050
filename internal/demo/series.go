package demo

import (
	"math/rand/v2"
	"slices"
)

// series are setups the demo measures again with each engine version, so
// /history has lines to draw: every seriesEvery-th run from offset is the
// series' setup at the next version, each version a few per cent faster
// than the one before (engines do get faster on a given card).
var series = []struct {
	offset             int
	gpu, model, engine string
	quant              string
	count              int
	gainPerVersion     float64
}{
	{3, "RTX 4090", "Qwen/Qwen3-8B", "vllm", "FP8 dynamic", 1, 0.06},
	{13, "RTX 3090", "meta-llama/Llama-3.1-8B-Instruct", "llama.cpp", "Q4_K_M", 1, 0.04},
}

const seriesEvery = 20

// seriesSetup is run i's setup when i is a series run, else nil.
func seriesSetup(rng *rand.Rand, i int) *setup {
	for _, sr := range series {
		if i%seriesEvery != sr.offset {
			continue
		}
		g := gpus[slices.IndexFunc(gpus, func(g gpu) bool { return g.Name == sr.gpu })]
		m := models[slices.IndexFunc(models, func(m model) bool { return m.ID == sr.model })]
		qs := quants[sr.engine]
		q := qs[slices.IndexFunc(qs, func(q quant) bool { return q.Name == sr.quant })]
		s := newSetup(rng, g, sr.count, m, q, sr.engine)
		if s == nil {
			return nil
		}
		vs := engineVersions[sr.engine]
		k := (i / seriesEvery) % len(vs)
		s.version = vs[k]
		// No per-run jitter: the line shows the versions' gains.
		s.eff = g.Eff * engineEff[sr.engine] * (1 + sr.gainPerVersion*float64(k))
		return s
	}
	return nil
}
