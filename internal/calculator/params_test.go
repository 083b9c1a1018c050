package calculator

import "testing"

// Parameter counts from the configs against the model cards' totals and
// active counts (billions). Cards count active parameters three ways:
// with the lm_head only (gpt-oss, DeepSeek), with both embedding matrices
// (Qwen) or with neither (GLM); embed says which (0, +1, -1).
func TestParamsMatchModelCards(t *testing.T) {
	for _, c := range []struct {
		id            string
		total, active float64
		embed         int
	}{
		{"meta-llama/Llama-3.1-8B", 8.03, 0, 0},
		{"meta-llama/Llama-3.1-70B", 70.6, 0, 0},
		{"Qwen/Qwen3-8B", 8.19, 0, 0},
		{"Qwen/Qwen3-32B", 32.8, 0, 0},
		{"Qwen/Qwen3-30B-A3B", 30.5, 3.3, 1},
		{"Qwen/Qwen3-235B-A22B", 235, 22, 1},
		{"openai/gpt-oss-20b", 20.9, 3.6, 0},
		{"openai/gpt-oss-120b", 116.8, 5.1, 0},
		{"deepseek-ai/DeepSeek-V3", 671, 37, 0},
		{"zai-org/GLM-4.5-Air", 106, 12, -1},
		{"mistralai/Mistral-Small-24B-Instruct-2501", 23.6, 0, 0},
		{"google/gemma-3-27b-it", 27, 0, 0},
	} {
		p := mustModel(t, c.id).Count()
		near(t, c.id+" total", p.Total()/1e9, c.total, 0.03)
		if c.active > 0 {
			near(t, c.id+" active", (p.Active()+float64(c.embed)*p.Embed)/1e9, c.active, 0.03)
		}
	}
}

// Qwen3.5-4B as counted by hand from its config: 3.57B parameters outside
// the tied 0.636B embedding, and 51.5 MB of state per sequence.
func TestQwen35Hybrid(t *testing.T) {
	a := mustModel(t, "Qwen/Qwen3.5-4B")
	p := a.Count()
	near(t, "non-embedding", p.Dense/1e9, 3.57, 0.005)
	near(t, "embedding", p.Embed/1e9, 0.636, 0.005)
	near(t, "state MB", a.StateBytesPerSeq()/1e6, 51.5, 0.005)
	if a.count(LayerFull) != 8 || a.count(LayerLinear) != 24 {
		t.Errorf("layers full/linear = %d/%d, want 8/24", a.count(LayerFull), a.count(LayerLinear))
	}
}
