package calculator

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// What launch commands declare: speculation with and without a count, and
// the KV-cache format, in the engines' spellings.
func TestLaunchCommandFacts(t *testing.T) {
	for cmd, want := range map[string]int{
		`vllm serve Qwen/Qwen3.5-4B --speculative-config '{"method":"mtp","num_speculative_tokens": 2}'`: 2,
		"python -m sglang.launch_server --speculative-num-draft-tokens 4":                                4,
		"llama-server -m a.gguf -md b.gguf --draft-max 8":                                                8,
		"llama-server -m a.gguf -md b.gguf":                                                              undeclaredDrafts,
		"llama-server -m a.gguf --draft=64":                                                              undeclaredDrafts,
		"vllm serve x --max-model-len 32768":                                                             0,
		"":                                                                                               0,
	} {
		if got := specFromCommand(cmd); got != want {
			t.Errorf("specFromCommand(%q) = %d, want %d", cmd, got, want)
		}
	}
	for cmd, want := range map[string]string{
		"vllm serve x --kv-cache-dtype fp8_e5m2":     "fp8",
		"llama-server -m a.gguf -ctk q4_0 -ctv q4_0": "int4",
		`llama-server --cache-type-k="q8_0"`:         "int8",
		"vllm serve x":                               "",
	} {
		if got, _ := kvFromCommand(cmd); got != want {
			t.Errorf("kvFromCommand(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// submatchFrom finds what the expression finds on the whole command, on
// commands made of the pieces that matter, in any order.
func TestSubmatchFromIsFindStringSubmatch(t *testing.T) {
	pieces := []string{"--draft", "-max", " ", "=", "8", "12", "--kv-cache-dtype", "-ctk", "fp8", "q4_0",
		`num_speculative_tokens"`, ":", "--speculative-num-draft-tokens", "--cache-type-k", `"`, "x", "-md"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		for _, c := range []struct {
			name   string
			got    []string
			wanted []string
		}{
			{"specN", submatchFrom(specN, s, specNStart), specN.FindStringSubmatch(s)},
			{"kvDtype", submatchFrom(kvDtype, s, kvDtypeStart), kvDtype.FindStringSubmatch(s)},
		} {
			if !slices.Equal(c.got, c.wanted) {
				t.Fatalf("%s on %q: %q, the expression alone %q", c.name, s, c.got, c.wanted)
			}
		}
		has := slices.ContainsFunc(specFlagHas, func(lit string) bool { return strings.Contains(s, lit) })
		if specFlag.MatchString(" "+s+" ") && !has {
			t.Fatalf("specFlag matches %q, which has none of %q", s, specFlagHas)
		}
	}
}
