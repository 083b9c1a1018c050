// Package calculator computes what a GPU can do at best for a model: the
// memory a deployment needs and the decode speed that the bytes moved per
// step (and, where it binds, the arithmetic) allow. It knows GPUs and
// models from tables embedded in the binary (data/*.json), and any other
// model from its Hugging Face config.json.
package calculator

// Arch is the part of a model's architecture that decides its weight
// bytes, its KV cache and its per-sequence state. Counts are per model;
// zero means the feature is absent.
type Arch struct {
	Hidden, Layers, Vocab int
	QHeads, KVHeads       int
	HeadDim               int
	// Intermediate is the dense MLP width.
	Intermediate int
	TiedEmbed    bool
	// GatedQuery doubles the query projection (Qwen3.5's output gate).
	GatedQuery bool

	// MoE: routed experts, experts per token, the expert MLP width, shared
	// experts (of SharedIntermediate width) and which layers route.
	Experts, TopK, ExpertIntermediate int
	SharedExperts, SharedIntermediate int
	// MoELayer[i] is true when layer i has experts instead of a dense MLP.
	MoELayer []bool

	// Kind[i] says what attention layer i has: full, sliding or linear.
	Kind []LayerKind
	// Window is the sliding window in tokens for LayerSliding layers.
	Window int

	// MLA (DeepSeek-V3): the cache holds KVLoRARank + QKRopeDim values
	// per token and layer instead of keys and values per head.
	QLoRARank, KVLoRARank, QKNopeDim, QKRopeDim, VHeadDim int

	// Linear attention (Gated DeltaNet): heads and dimensions of the
	// recurrent state, the convolution width and the state's bytes per value.
	LinKHeads, LinVHeads, LinKDim, LinVDim, ConvKernel int
	StateBytes                                         float64
}

// LayerKind is the attention a layer has.
type LayerKind int

// The attention kinds: full attention keeps every token's keys and values,
// sliding attention only the last Window tokens', linear attention a
// fixed-size state.
const (
	LayerFull LayerKind = iota
	LayerSliding
	LayerLinear
)

// count is how many layers have kind k.
func (a Arch) count(k LayerKind) int {
	n := 0
	for _, x := range a.Kind {
		if x == k {
			n++
		}
	}
	return n
}

// MLA reports whether the model caches a compressed latent (DeepSeek's
// multi-head latent attention).
func (a Arch) MLA() bool { return a.KVLoRARank > 0 }
