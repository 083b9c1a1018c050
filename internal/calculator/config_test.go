package calculator

import (
	"errors"
	"testing"
)

// A multimodal config keeps the language model under text_config; the
// reader takes it from there, and the nested fields win.
func TestReadConfigTextConfig(t *testing.T) {
	a, err := ReadConfig([]byte(`{"model_type":"gemma3","hidden_size":1152,"vision_config":{"hidden_size":1152},
		"text_config":{"hidden_size":2560,"num_hidden_layers":34,"num_attention_heads":8,"num_key_value_heads":4,
		"head_dim":256,"intermediate_size":10240,"vocab_size":262208,"sliding_window":1024,"sliding_window_pattern":6}}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.Hidden != 2560 || a.Layers != 34 || a.KVHeads != 4 || a.HeadDim != 256 {
		t.Errorf("read %+v", a)
	}
	if a.count(LayerSliding) != 29 || a.count(LayerFull) != 5 || a.Window != 1024 {
		t.Errorf("sliding/full = %d/%d window %d, want 29/5 1024", a.count(LayerSliding), a.count(LayerFull), a.Window)
	}
}

// Without head_dim, the head is hidden/heads; without KV heads, every
// head has its own; a window the config switches off is no window.
func TestReadConfigDefaults(t *testing.T) {
	a, err := ReadConfig([]byte(`{"hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,
		"intermediate_size":11008,"vocab_size":32000,"sliding_window":4096,"use_sliding_window":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.HeadDim != 128 || a.KVHeads != 32 || a.count(LayerFull) != 32 {
		t.Errorf("read %+v", a)
	}
	m, err := ReadConfig([]byte(`{"hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,
		"num_key_value_heads":8,"intermediate_size":14336,"vocab_size":32000,"sliding_window":4096}`))
	if err != nil || m.count(LayerSliding) != 32 {
		t.Errorf("a window on every layer (Mistral 7B v0.1): %d sliding, %v", m.count(LayerSliding), err)
	}
}

// A config that cannot describe a model is refused naming the field.
func TestReadConfigRefusals(t *testing.T) {
	for body, field := range map[string]string{
		`not json`: "$",
		`{"num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000}`:                                   "hidden_size",
		`{"hidden_size":4096,"num_hidden_layers":-3,"num_attention_heads":32,"vocab_size":32000}`:                "num_hidden_layers",
		`{"hidden_size":4096,"num_hidden_layers":2,"num_attention_heads":32,"vocab_size":1,"layer_types":["x"]}`: "layer_types",
	} {
		_, err := ReadConfig([]byte(body))
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != field {
			t.Errorf("%s: error %v, want one naming %s", body, err, field)
		}
	}
}

// MoE fields under each family's names; DeepSeek's first dense layers.
func TestReadConfigMoE(t *testing.T) {
	a := mustModel(t, "deepseek-ai/DeepSeek-V3")
	moe := 0
	for _, x := range a.MoELayer {
		if x {
			moe++
		}
	}
	if a.Experts != 256 || a.TopK != 8 || a.SharedExperts != 1 || moe != 58 || !a.MLA() {
		t.Errorf("DeepSeek-V3 read as %d experts top %d, %d shared, %d MoE layers, MLA %v", a.Experts, a.TopK, a.SharedExperts, moe, a.MLA())
	}
	if o := mustModel(t, "openai/gpt-oss-20b"); o.Experts != 32 || o.TopK != 4 || o.count(LayerSliding) != 12 {
		t.Errorf("gpt-oss-20b read as %d experts top %d, %d sliding", o.Experts, o.TopK, o.count(LayerSliding))
	}
}
