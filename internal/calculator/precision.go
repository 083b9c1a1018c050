package calculator

import "sort"

// Precision is a storage format for weights or the KV cache.
type Precision struct {
	// Code is the calculator's name for it ("fp8", "q4_k_m").
	Code string
	// Bytes is the bytes one value takes, block scales included.
	Bytes float64
	// Compute is the tensor rate the matrix products of this format run
	// at: "fp8" where the GPU has FP8 tensor cores, else 16-bit (weights
	// dequantized on the fly).
	Compute string
}

// precisions: 16-bit and 8-bit floats and integers; int4 (AWQ/GPTQ, group
// size 128 with a 16-bit scale); llama.cpp's Q4_K_M (≈4.65 bits a weight
// on average), Q8_0 (8.5) and Q6_K (6.56); MXFP4 (4 bits + one 8-bit scale
// per 32).
var precisions = map[string]Precision{
	"bf16":   {"bf16", 2, "fp16"},
	"fp16":   {"fp16", 2, "fp16"},
	"fp8":    {"fp8", 1, "fp8"},
	"int8":   {"int8", 1, "fp16"},
	"int4":   {"int4", 0.5 + 2.0/128, "fp16"},
	"q8_0":   {"q8_0", 8.5 / 8, "fp16"},
	"q6_k":   {"q6_k", 6.5625 / 8, "fp16"},
	"q4_k_m": {"q4_k_m", 4.65 / 8, "fp16"},
	"mxfp4":  {"mxfp4", 4.25 / 8, "fp4"},
}

// kvPrecisions are the formats engines store the KV cache in.
var kvPrecisions = []string{"bf16", "fp16", "fp8", "int8", "int4"}

// PrecisionOf is the format named code, and whether it is known.
func PrecisionOf(code string) (Precision, bool) {
	p, ok := precisions[code]
	return p, ok
}

// WeightPrecisions are the weight formats' codes, sorted.
func WeightPrecisions() []string {
	out := make([]string, 0, len(precisions))
	for c := range precisions {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// KVPrecisions are the KV-cache formats' codes.
func KVPrecisions() []string { return append([]string(nil), kvPrecisions...) }

// kvBytes is a KV format's bytes per value; int4 carries no scales here
// because engines keep them per block of 64 or more values.
func kvBytes(code string) (float64, bool) {
	for _, c := range kvPrecisions {
		if c == code {
			if c == "int4" {
				return 0.5, true
			}
			return precisions[c].Bytes, true
		}
	}
	return 0, false
}
