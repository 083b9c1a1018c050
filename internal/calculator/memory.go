package calculator

import "math"

// UsableShare is the part of a GPU's memory an engine gives to weights and
// cache: vLLM's and SGLang's default (0.9) leaves the rest to activations,
// the CUDA context and fragmentation.
const UsableShare = 0.9

// Memory is what a deployment needs, in decimal GB.
type Memory struct {
	// WeightsGB is every stored parameter, embeddings included.
	WeightsGB float64
	// KVGBPerRequest is one request's KV cache at the context;
	// StateGBPerRequest its fixed linear-attention state.
	KVGBPerRequest, StateGBPerRequest float64
	// UsableGB is UsableShare of the GPUs' memory; NeededGB the weights
	// plus every request's cache and state.
	UsableGB, NeededGB float64
	Fits               bool
	// MaxConcurrency is the most requests at the context that fit; -1 when
	// requests take no memory (context 0 on a pure-attention model), 0
	// when even the weights do not fit.
	MaxConcurrency int
}

// weightBytes is the stored weights: the embedding and head at the head's
// precision, everything else at the weights'.
func weightBytes(p Params, w, head Precision) float64 {
	b := p.Embed*head.Bytes + (p.Dense+p.Expert*float64(p.Experts))*w.Bytes
	if !p.Tied {
		b += p.Head * head.Bytes
	}
	return b
}

func memoryFor(in Input, p Params) Memory {
	kvb, _ := kvBytes(in.KV)
	m := Memory{
		WeightsGB:         weightBytes(p, in.Weights, in.Head) / 1e9,
		KVGBPerRequest:    in.Arch.KVBytes(in.Context, kvb) / 1e9,
		StateGBPerRequest: in.Arch.StateBytesPerSeq() / 1e9,
		UsableGB:          in.GPU.MemoryGB * float64(in.count()) * UsableShare,
	}
	per := m.KVGBPerRequest + m.StateGBPerRequest
	m.NeededGB = m.WeightsGB + per*float64(in.Concurrency)
	m.Fits = m.NeededGB <= m.UsableGB
	switch free := m.UsableGB - m.WeightsGB; {
	case free < 0:
		m.MaxConcurrency = 0
	case per == 0:
		m.MaxConcurrency = -1
	default:
		m.MaxConcurrency = int(math.Min(math.Floor(free/per), 1<<30))
	}
	return m
}
