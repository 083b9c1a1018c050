package flags

import (
	"maps"
	"slices"
	"testing"
)

// seedCommand is the seed run's launch command: comments, a JSON value
// written without quotes, booleans between valued flags.
const seedCommand = "# Untuned baseline. KV cache: int4_per_token_head\n# 1x RTX 3060 12GB\n" +
	`vllm serve RedHatAI/Qwen3.5-4B-FP8-dynamic --max-model-len 262144 --gpu-memory-utilization 0.94 ` +
	`--max-num-seqs 128 --enable-prefix-caching --trust-remote-code --language-model-only ` +
	`--speculative-config {"method":"mtp","num_speculative_tokens":2} --kv-cache-dtype int4_per_token_head ` +
	`--attention-backend TRITON_ATTN`

func TestParseSeedCommand(t *testing.T) {
	c := Parse("vllm", seedCommand)
	want := map[string]string{
		"max-model-len": "262144", "gpu-memory-utilization": "0.94", "max-num-seqs": "128",
		"enable-prefix-caching": True, "trust-remote-code": True, "language-model-only": True,
		"speculative-config": `{"method":"mtp","num_speculative_tokens":2}`,
		"kv-cache-dtype":     "int4_per_token_head", "attention-backend": "TRITON_ATTN",
	}
	if !maps.Equal(c.Values, want) {
		t.Errorf("values %v\nwant %v", c.Values, want)
	}
	if !slices.Equal(c.Args, []string{"RedHatAI/Qwen3.5-4B-FP8-dynamic"}) {
		t.Errorf("args %q, want the model alone (comments and the program left out)", c.Args)
	}
	if c.Names[0] != "max-model-len" || c.Names[len(c.Names)-1] != "attention-backend" {
		t.Errorf("names not in command order: %v", c.Names)
	}
}

func TestParseSpellingsAreOneFlag(t *testing.T) {
	for _, cmd := range []string{
		"vllm serve m --max-num-seqs 128 --tensor-parallel-size 2",
		"vllm serve m --max-num-seqs=128 -tp 2",
		"vllm serve m --max_num_seqs '128' -tp=2",
		"python -m vllm.entrypoints.openai.api_server --model m --max-num-seqs \"128\" --tensor_parallel_size 2",
		"CUDA_VISIBLE_DEVICES=0,1 vllm serve m \\\n  --max-num-seqs 128 \\\n  -tp 2",
		"docker run --gpus all -p 8000:8000 -e HF_TOKEN=x vllm/vllm-openai:v0.8.5 --max-num-seqs 128 -tp 2",
	} {
		c := Parse("vLLM", cmd)
		if v, _ := c.Value("max-num-seqs"); v != "128" {
			t.Errorf("%q: max-num-seqs = %q, want 128 (%v)", cmd, v, c.Values)
		}
		if tp, _ := c.Parallelism(); tp != 2 {
			t.Errorf("%q: tensor parallel %d, want 2 (%v)", cmd, tp, c.Values)
		}
		if _, ok := c.Values["gpus"]; ok {
			t.Errorf("%q: docker's own flags read as the engine's: %v", cmd, c.Values)
		}
	}
}

func TestParseLlamaCppAliases(t *testing.T) {
	short := Parse("llama.cpp", "./llama-server -m /m/q.gguf -c 8192 -ngl 99 -fa on -ctk q8_0 -np 4 --no-mmap --seed -1 -cb")
	long := Parse("llama-cpp", "llama-server --model /m/q.gguf --ctx-size=8192 --n-gpu-layers 99 --flash-attn on "+
		"--cache-type-k q8_0 --parallel 4 --no-mmap --seed=-1 --cont-batching")
	if !maps.Equal(short.Values, long.Values) {
		t.Errorf("short spellings %v\n differ from long %v", short.Values, long.Values)
	}
	if v, _ := short.Value("-c"); v != "8192" {
		t.Errorf("-c is %q", v)
	}
	if short.Values["seed"] != "-1" || short.Values["no-mmap"] != True {
		t.Errorf("a negative value or a boolean misread: %v", short.Values)
	}
}

func TestParseSGLang(t *testing.T) {
	c := Parse("sglang", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp 4 --pp-size 2 "+
		"--enable-torch-compile --mem-fraction-static 0.85")
	if tp, pp := c.Parallelism(); tp != 4 || pp != 2 {
		t.Errorf("parallelism %d×%d, want 4×2: %v", tp, pp, c.Values)
	}
	if c.Values["model-path"] != "Qwen/Qwen3-8B" || c.Values["enable-torch-compile"] != True {
		t.Errorf("values %v", c.Values)
	}
}

func TestParseBooleansAndNegation(t *testing.T) {
	c := Parse("vllm", "vllm serve m --enforce-eager --no-enable-prefix-caching -O3 --unknown-switch --x=1")
	want := map[string]string{"enforce-eager": True, "enable-prefix-caching": "false",
		"compilation-config": "3", "unknown-switch": True, "x": "1"}
	if !maps.Equal(c.Values, want) {
		t.Errorf("values %v, want %v", c.Values, want)
	}
	// A flag the engine does not know as a boolean takes the next word.
	g := Parse("someengine", "serve --foo bar --flag --other")
	if g.Values["foo"] != "bar" || g.Values["flag"] != True || g.Values["other"] != True {
		t.Errorf("generic values %v", g.Values)
	}
}

func TestParseRepeatedFlag(t *testing.T) {
	c := Parse("llama.cpp", "llama-server -ot a=CPU --override-tensor b=CPU")
	if c.Values["override-tensor"] != "a=CPU, b=CPU" || len(c.Names) != 1 {
		t.Errorf("repeated flag: %v %v", c.Values, c.Names)
	}
}

func TestSplitQuotes(t *testing.T) {
	got := Split(`a 'b c' "d \"e\"" --j='{"k": 1}' {"x":"y"} f\ g # gone` + "\nh")
	want := []string{"a", "b c", `d "e"`, `--j='{"k": 1}'`, `{"x":"y"}`, "f g", "h"}
	if !slices.Equal(got, want) {
		t.Errorf("Split = %q\nwant %q", got, want)
	}
}

func TestSpeedRankPutsKVCacheFirst(t *testing.T) {
	if SpeedRank("kv-cache-dtype") != 0 || SpeedRank("max-num-seqs") >= SpeedRank("host") ||
		SpeedRank("speculative-config") > SpeedRank("max-num-seqs") {
		t.Error("speed ranks out of order")
	}
}

func TestEngineOf(t *testing.T) {
	for in, want := range map[string]string{"vLLM": VLLM, "vllm-openai": VLLM, "SGLang": SGLang,
		"llama.cpp": LlamaCpp, "llama_cpp": LlamaCpp, "llamacpp": LlamaCpp, "tgi": "", "": ""} {
		if got := EngineOf(in); got != want {
			t.Errorf("EngineOf(%q) = %q, want %q", in, got, want)
		}
	}
}
