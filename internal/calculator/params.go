package calculator

// Params are a model's parameter counts, split by how decode reads them.
// Norms, biases and routers are left out: they are well under 0.1% of any
// model in the table.
type Params struct {
	// Embed is the input embedding: decode reads only the rows of the
	// tokens in the step, so it costs memory but (almost) no bandwidth.
	Embed float64
	// Head is the output projection (lm_head), read whole every step; it
	// is the embedding matrix again when the model ties them.
	Head float64
	// Dense is every other parameter every token uses: attention, dense
	// MLPs, shared experts.
	Dense float64
	// Expert is one routed expert's parameters, summed over the MoE layers
	// (so Experts × Expert parameters live in the routed experts).
	Expert float64
	// Experts and TopK repeat the architecture's routing.
	Experts, TopK int
	// Tied says Head is the Embed matrix, stored once.
	Tied bool
}

// Total is every parameter stored, the tied matrix once.
func (p Params) Total() float64 {
	t := p.Embed + p.Dense + p.Expert*float64(p.Experts)
	if !p.Tied {
		t += p.Head
	}
	return t
}

// Active is the parameters one token reads: everything but the input
// embedding and the experts it is not routed to (how model cards count).
func (p Params) Active() float64 { return p.Head + p.Dense + p.Expert*float64(p.TopK) }

// Count is the parameter counts of a.
func (a Arch) Count() Params {
	h := float64(a.Hidden)
	p := Params{Embed: float64(a.Vocab) * h, Experts: a.Experts, TopK: a.TopK, Tied: a.TiedEmbed}
	p.Head = p.Embed
	for i, k := range a.Kind {
		if k == LayerLinear {
			p.Dense += a.linearParams()
		} else {
			p.Dense += a.attentionParams()
		}
		if a.Experts > 0 && a.MoELayer[i] {
			p.Expert += 3 * h * float64(a.ExpertIntermediate)
			p.Dense += 3 * h * float64(a.SharedIntermediate*a.SharedExperts)
		} else {
			p.Dense += 3 * h * float64(a.Intermediate)
		}
	}
	return p
}

// attentionParams is one attention layer's projections.
func (a Arch) attentionParams() float64 {
	h, n := float64(a.Hidden), float64(a.QHeads)
	if a.MLA() {
		qk := float64(a.QKNopeDim + a.QKRopeDim)
		q := h * n * qk
		if a.QLoRARank > 0 {
			q = h*float64(a.QLoRARank) + float64(a.QLoRARank)*n*qk
		}
		kv := h*float64(a.KVLoRARank+a.QKRopeDim) + float64(a.KVLoRARank)*n*float64(a.QKNopeDim+a.VHeadDim)
		return q + kv + n*float64(a.VHeadDim)*h
	}
	qOut := n * float64(a.HeadDim)
	q := h * qOut
	if a.GatedQuery {
		q *= 2
	}
	return q + 2*h*float64(a.KVHeads*a.HeadDim) + qOut*h
}

// linearParams is one Gated DeltaNet layer: the q/k/v/z and a/b input
// projections, the short convolution and the output projection.
func (a Arch) linearParams() float64 {
	h := float64(a.Hidden)
	k, v := float64(a.LinKHeads*a.LinKDim), float64(a.LinVHeads*a.LinVDim)
	in := h * (2*k + 2*v + 2*float64(a.LinVHeads))
	conv := (2*k + v) * float64(a.ConvKernel)
	return in + conv + v*h
}
