package calculator

import (
	"encoding/json"
	"fmt"
)

// FieldError is a config.json that lacks a field the calculator needs or
// has one it cannot use; Field is the JSON name.
type FieldError struct{ Field, Problem string }

func (e *FieldError) Error() string { return "config.json: " + e.Field + ": " + e.Problem }

// config is a config.json's fields by name. Multimodal models keep the
// language model's fields under text_config; those win over the top level.
type config map[string]any

// ReadConfig reads a Hugging Face config.json into an Arch.
func ReadConfig(data []byte) (Arch, error) {
	var top config
	if err := json.Unmarshal(data, &top); err != nil {
		return Arch{}, &FieldError{Field: "$", Problem: err.Error()}
	}
	c := top
	if tc, ok := top["text_config"].(map[string]any); ok {
		c = config{}
		for k, v := range top {
			c[k] = v
		}
		for k, v := range tc {
			c[k] = v
		}
	}
	return c.arch()
}

func (c config) arch() (Arch, error) {
	a := Arch{
		Hidden: c.int("hidden_size"), Layers: c.int("num_hidden_layers"),
		Vocab: c.int("vocab_size"), QHeads: c.int("num_attention_heads"),
		Intermediate: c.int("intermediate_size"),
		TiedEmbed:    c.bool("tie_word_embeddings"), GatedQuery: c.bool("attn_output_gate"),
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"hidden_size", a.Hidden}, {"num_hidden_layers", a.Layers}, {"vocab_size", a.Vocab}, {"num_attention_heads", a.QHeads}} {
		if f.v <= 0 {
			return Arch{}, &FieldError{Field: f.name, Problem: "missing or not a positive whole number"}
		}
	}
	if a.Layers > 1000 || a.Hidden > 1<<20 || a.Vocab > 1<<24 || a.QHeads > 1<<12 {
		return Arch{}, &FieldError{Field: "num_hidden_layers", Problem: "out of range"}
	}
	a.KVHeads = c.intOr("num_key_value_heads", a.QHeads)
	a.HeadDim = c.intOr("head_dim", a.Hidden/a.QHeads)
	c.readMoE(&a)
	c.readMLA(&a)
	c.readLinear(&a)
	kind, err := c.layerKinds(a.Layers)
	if err != nil {
		return Arch{}, err
	}
	a.Kind = kind
	a.Window = c.int("sliding_window")
	return a, nil
}

func (c config) readMoE(a *Arch) {
	a.Experts = c.first("num_experts", "n_routed_experts", "num_local_experts")
	if a.Experts <= 1 {
		a.Experts = 0
		return
	}
	a.TopK = c.first("num_experts_per_tok", "experts_per_token", "num_experts_per_token")
	a.ExpertIntermediate = c.intOr("moe_intermediate_size", a.Intermediate)
	if n := c.int("n_shared_experts"); n > 0 {
		a.SharedExperts, a.SharedIntermediate = n, a.ExpertIntermediate
	} else if w := c.int("shared_expert_intermediate_size"); w > 0 {
		a.SharedExperts, a.SharedIntermediate = 1, w
	}
	firstDense, step := c.int("first_k_dense_replace"), c.intOr("decoder_sparse_step", 1)
	dense := map[int]bool{}
	for _, v := range c.ints("mlp_only_layers") {
		dense[v] = true
	}
	a.MoELayer = make([]bool, a.Layers)
	for i := range a.MoELayer {
		a.MoELayer[i] = i >= firstDense && !dense[i] && (step <= 1 || (i+1)%step == 0)
	}
}

func (c config) readMLA(a *Arch) {
	a.KVLoRARank = c.int("kv_lora_rank")
	if a.KVLoRARank == 0 {
		return
	}
	a.QLoRARank, a.QKNopeDim = c.int("q_lora_rank"), c.int("qk_nope_head_dim")
	a.QKRopeDim, a.VHeadDim = c.int("qk_rope_head_dim"), c.int("v_head_dim")
}

func (c config) readLinear(a *Arch) {
	a.LinKHeads, a.LinVHeads = c.int("linear_num_key_heads"), c.int("linear_num_value_heads")
	a.LinKDim, a.LinVDim = c.int("linear_key_head_dim"), c.int("linear_value_head_dim")
	a.ConvKernel = c.int("linear_conv_kernel_dim")
	a.StateBytes = 2
	if s, _ := c["mamba_ssm_dtype"].(string); s == "float32" {
		a.StateBytes = 4
	}
}

// layerKinds reads which layers attend how, from the most explicit field
// a config has: layer_types, then full_attention_interval (hybrid linear
// attention), then sliding_window_pattern, then a window on every layer.
func (c config) layerKinds(n int) ([]LayerKind, error) {
	kind := make([]LayerKind, n)
	if types, ok := c["layer_types"].([]any); ok {
		if len(types) != n {
			return nil, &FieldError{Field: "layer_types", Problem: fmt.Sprintf("%d entries for %d layers", len(types), n)}
		}
		for i, t := range types {
			switch t {
			case "sliding_attention":
				kind[i] = LayerSliding
			case "linear_attention":
				kind[i] = LayerLinear
			}
		}
		return kind, nil
	}
	every, linear := c.int("full_attention_interval"), true
	if every == 0 && c.int("sliding_window") > 0 {
		every, linear = c.int("sliding_window_pattern"), false
		if every == 0 && c["use_sliding_window"] != false {
			every = n + 1 // a window on every layer
		}
	}
	for i := range kind {
		switch {
		case every <= 1 || (i+1)%every == 0:
		case linear:
			kind[i] = LayerLinear
		default:
			kind[i] = LayerSliding
		}
	}
	return kind, nil
}

func (c config) int(k string) int { return c.intOr(k, 0) }

// intOr is a whole-number field, or def when absent, null or not whole.
func (c config) intOr(k string, def int) int {
	f, ok := c[k].(float64)
	if !ok || f != float64(int(f)) || f < 0 || f > 1<<40 {
		return def
	}
	return int(f)
}

func (c config) first(keys ...string) int {
	for _, k := range keys {
		if v := c.int(k); v > 0 {
			return v
		}
	}
	return 0
}

func (c config) bool(k string) bool { b, _ := c[k].(bool); return b }

func (c config) ints(k string) []int {
	list, _ := c[k].([]any)
	var out []int
	for _, v := range list {
		if f, ok := v.(float64); ok {
			out = append(out, int(f))
		}
	}
	return out
}
