package flags

import (
	"slices"
	"strconv"
)

// speedFlags are the flags known to move decode speed, most first, as
// each engine names them canonically: the KV-cache format, speculative
// decoding, parallelism, batching caps, memory for the cache, offload,
// attention kernels. A comparison lists differing flags in this order,
// then the rest by name.
var speedFlags = []string{
	"kv-cache-dtype", "cache-type-k", "cache-type-v",
	"speculative-config", "speculative-algorithm", "speculative-draft-model-path",
	"speculative-num-draft-tokens", "speculative-num-steps", "speculative-eagle-topk",
	"model-draft", "draft-max", "draft-min",
	"tensor-parallel-size", "tp-size", "pipeline-parallel-size", "pp-size",
	"data-parallel-size", "dp-size", "enable-expert-parallel", "ep-size", "split-mode", "tensor-split",
	"n-gpu-layers", "cpu-moe", "n-cpu-moe", "override-tensor", "no-kv-offload",
	"max-num-seqs", "max-running-requests", "parallel", "cont-batching",
	"max-num-batched-tokens", "chunked-prefill-size", "batch-size", "ubatch-size",
	"gpu-memory-utilization", "mem-fraction-static", "max-model-len", "context-length", "ctx-size",
	"quantization", "dtype", "attention-backend", "flash-attn", "enforce-eager", "disable-cuda-graph",
	"cuda-graph-max-bs", "compilation-config", "enable-torch-compile", "async-scheduling",
	"enable-prefix-caching", "disable-radix-cache", "threads",
}

// SpeedRank is flag name's place among the flags known to move decode
// speed (0 first), or len of that list for any other flag.
func SpeedRank(name string) int {
	if i := slices.Index(speedFlags, name); i >= 0 {
		return i
	}
	return len(speedFlags)
}

// Parallelism is the tensor and pipeline parallel sizes the command sets,
// 0 when it sets none (the engine's default of 1).
func (c Command) Parallelism() (tensor, pipeline int) {
	return c.intOf("tensor-parallel-size", "tp-size"), c.intOf("pipeline-parallel-size", "pp-size")
}

// intOf is the first of names the command sets to a whole number.
func (c Command) intOf(names ...string) int {
	for _, n := range names {
		if v, ok := c.Values[n]; ok {
			if i, err := strconv.Atoi(v); err == nil {
				return i
			}
		}
	}
	return 0
}
