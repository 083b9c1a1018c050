package calculator

import (
	"net/url"
	"strconv"
)

// Link is a calculation as /calculator's query names it. Its Query is the
// one encoding of that address, used by the calculator's own form and by
// every report that links to it prefilled.
type Link struct {
	GPU, Model, Config   string
	Weights, Head, KV    string
	Count                int
	Context, Concurrency int
	SpecTokens           int
	Acceptance           float64
}

// Query is the link as a query string, fields in a fixed order and the
// form's defaults left out, so the same calculation has one address.
func (k Link) Query() string {
	v := url.Values{}
	set := func(key, s, def string) {
		if s != def && s != "" {
			v.Set(key, s)
		}
	}
	set("gpu", k.GPU, "")
	set("gpu_count", strconv.Itoa(max(k.Count, 1)), "1")
	set("model", k.Model, "")
	set("config", k.Config, "")
	set("weights", k.Weights, "bf16")
	set("head", k.Head, "bf16")
	set("kv", k.KV, "bf16")
	set("context", strconv.Itoa(k.Context), "0")
	set("concurrency", strconv.Itoa(max(k.Concurrency, 1)), "1")
	set("spec_tokens", strconv.Itoa(k.SpecTokens), "0")
	if k.SpecTokens > 0 {
		set("acceptance", strconv.FormatFloat(k.Acceptance, 'f', -1, 64), "")
	}
	return v.Encode()
}

// Link is the calculator prefilled with what the run's facts resolve to:
// its GPU, count, model (the run's own id when the table lacks it, so the
// calculator says so) and formats. Speculation is left out, as in Bound.
func (s RunSetup) Link(modelID string) Link {
	k := Link{GPU: s.GPU.ID, Count: s.Count, Model: s.Model.ID, Weights: s.Weights.Code,
		Head: s.Head.Code, KV: s.KV}
	if k.Model == "" {
		k.Model = modelID
	}
	return k
}
