package flags

import "strings"

// rules are how one engine spells its flags.
type rules struct {
	// aliases map a spelling (without dashes, as typed) to the canonical
	// name: short options and the engines' own synonyms.
	aliases map[string]string
	// booleans take no value: the word after them is never theirs.
	booleans map[string]bool
	// negatable engines accept "--no-X" for "--X false" (vLLM's argparse
	// BooleanOptionalAction).
	negatable bool
	// gluedShort are short options whose value may follow without a
	// blank, longest first: vLLM's "-O3".
	gluedShort []string
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

var (
	vllmRules = &rules{
		aliases: map[string]string{
			"tp": "tensor-parallel-size", "pp": "pipeline-parallel-size", "dp": "data-parallel-size",
			"q": "quantization", "o": "compilation-config", "model": "model",
		},
		booleans: set("enable-prefix-caching", "trust-remote-code", "enforce-eager", "enable-chunked-prefill",
			"disable-log-requests", "disable-log-stats", "enable-log-requests", "language-model-only",
			"enable-auto-tool-choice", "disable-custom-all-reduce", "async-scheduling", "enable-expert-parallel",
			"enable-lora", "enable-sleep-mode", "disable-sliding-window", "skip-tokenizer-init",
			"calculate-kv-scales", "disable-cascade-attn", "enable-reasoning", "headless"),
		negatable:  true,
		gluedShort: []string{"O"},
	}
	sglangRules = &rules{
		aliases: map[string]string{
			"tp": "tp-size", "tensor-parallel-size": "tp-size", "dp": "dp-size", "data-parallel-size": "dp-size",
			"pp": "pp-size", "pipeline-parallel-size": "pp-size", "model": "model-path",
			"ep": "ep-size", "expert-parallel-size": "ep-size",
		},
		booleans: set("trust-remote-code", "enable-torch-compile", "disable-radix-cache", "disable-cuda-graph",
			"enable-dp-attention", "enable-mixed-chunk", "disable-overlap-schedule", "enable-metrics",
			"log-requests", "skip-tokenizer-init", "enable-p2p-check", "disable-custom-all-reduce",
			"enable-ep-moe", "enable-deepep-moe", "enable-two-batch-overlap"),
	}
	llamaRules = &rules{
		aliases: map[string]string{
			"c": "ctx-size", "ngl": "n-gpu-layers", "gpu-layers": "n-gpu-layers", "m": "model",
			"np": "parallel", "b": "batch-size", "ub": "ubatch-size", "t": "threads", "tb": "threads-batch",
			"fa": "flash-attn", "ctk": "cache-type-k", "ctv": "cache-type-v", "ts": "tensor-split",
			"sm": "split-mode", "mg": "main-gpu", "md": "model-draft", "cb": "cont-batching",
			"ngld": "n-gpu-layers-draft", "gpu-layers-draft": "n-gpu-layers-draft", "hf": "hf-repo",
			"hfr": "hf-repo", "a": "alias", "dev": "device", "ot": "override-tensor", "cmoe": "cpu-moe",
			"ncmoe": "n-cpu-moe", "n": "n-predict", "predict": "n-predict", "s": "seed", "dt": "defrag-thold",
			"nkvo": "no-kv-offload", "cd": "ctx-size-draft", "devd": "device-draft", "draft": "draft-max",
			"draft-n": "draft-max", "draft-min": "draft-min", "kvu": "kv-unified", "to": "timeout",
			"rea": "reasoning-format", "fit": "fit",
		},
		booleans: set("cont-batching", "no-cont-batching", "no-mmap", "mlock", "jinja", "no-webui", "metrics",
			"no-kv-offload", "cpu-moe", "kv-unified", "embedding", "embeddings", "slots", "no-slots",
			"verbose", "log-disable", "check-tensors", "no-warmup", "swa-full", "context-shift",
			"no-context-shift", "mmproj-offload", "no-mmproj-offload", "props", "no-op-offload"),
	}
	genericRules = &rules{}
)

// rulesOf is the rules of engine (an EngineOf result).
func rulesOf(engine string) *rules {
	switch engine {
	case VLLM:
		return vllmRules
	case SGLang:
		return sglangRules
	case LlamaCpp:
		return llamaRules
	}
	return genericRules
}

// EngineOf names the rules that read a run's engine ("vllm", "vLLM",
// "llama.cpp", "llama-cpp", "llamacpp", "SGLang"): VLLM, SGLang, LlamaCpp
// or "" for any other.
func EngineOf(name string) string {
	n := strings.NewReplacer("-", "", "_", "", ".", "", " ", "").Replace(strings.ToLower(name))
	switch {
	case strings.HasPrefix(n, "vllm"):
		return VLLM
	case strings.HasPrefix(n, "sglang"):
		return SGLang
	case strings.HasPrefix(n, "llamacpp"), n == "llamaserver":
		return LlamaCpp
	}
	return ""
}

// canonical is flag w's canonical name: without leading dashes, lower
// case, underscores as dashes (vLLM and SGLang accept both), aliases
// resolved; "" when nothing is left.
func (r *rules) canonical(w string) string {
	n := strings.TrimLeft(strings.ToLower(strings.ReplaceAll(w, "_", "-")), "-")
	if a, ok := r.aliases[n]; ok {
		return a
	}
	return n
}

// negated reads "no-X" as flag X set false, for engines that spell
// booleans that way and when X is one of their booleans.
func (r *rules) negated(name string) (string, bool) {
	x, ok := strings.CutPrefix(name, "no-")
	if !ok || !r.negatable || !r.booleans[x] {
		return "", false
	}
	return x, true
}

// boolean reports whether flag name never takes a value.
func (r *rules) boolean(name string) bool { return r.booleans[name] }

// glued splits a short option whose value follows without a blank
// ("-O3" → "-O", "3"), for the options rules lists.
func (r *rules) glued(w string) (name, value string, ok bool) {
	if strings.HasPrefix(w, "--") {
		return "", "", false
	}
	for _, g := range r.gluedShort {
		if v, ok := strings.CutPrefix(w[1:], g); ok && v != "" {
			return "-" + g, v, true
		}
	}
	return "", "", false
}
