package calculator

// kvBytesPerToken is the cache one token adds in one full-attention (or
// sliding) layer: keys and values per KV head, or MLA's latent and RoPE key.
func (a Arch) kvBytesPerToken(bytes float64) float64 {
	if a.MLA() {
		return float64(a.KVLoRARank+a.QKRopeDim) * bytes
	}
	return 2 * float64(a.KVHeads*a.HeadDim) * bytes
}

// KVBytes is one sequence's KV cache at ctx tokens: full layers grow with
// the context, sliding layers stop at the window, linear layers have none.
func (a Arch) KVBytes(ctx int, bytes float64) float64 {
	local := ctx
	if a.Window > 0 && a.Window < ctx {
		local = a.Window
	}
	per := a.kvBytesPerToken(bytes)
	return per * (float64(a.count(LayerFull)*ctx) + float64(a.count(LayerSliding)*local))
}

// StateBytesPerSeq is one sequence's linear-attention state: the
// recurrent matrix per value head and the convolution's last inputs
// (kept in 16 bits).
func (a Arch) StateBytesPerSeq() float64 {
	n := float64(a.count(LayerLinear))
	if n == 0 {
		return 0
	}
	ssm := float64(a.LinVHeads*a.LinKDim*a.LinVDim) * a.StateBytes
	convDim := float64(2*a.LinKHeads*a.LinKDim + a.LinVHeads*a.LinVDim)
	return n * (ssm + convDim*float64(a.ConvKernel-1)*2)
}

// KVGrowth is the cache one more token adds to a sequence long past every
// window: the full-attention layers' (or MLA's) share alone. It is the
// "KV per token" calculators publish.
func (a Arch) KVGrowth(bytes float64) float64 {
	return a.kvBytesPerToken(bytes) * float64(a.count(LayerFull))
}
