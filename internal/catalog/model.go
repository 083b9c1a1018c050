package catalog

import (
	"regexp"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/memo"
)

// quantSuffix matches one trailing quantisation or packaging token of a
// model name, with the separator before it: "-FP8", "-dynamic", "-AWQ",
// "-W4A16", "-Q4_K_M", ".gguf", "-4bit", "-GPTQ-Int4", "-NVFP4", "-BF16".
var quantSuffix = regexp.MustCompile(`(?i)[-_.](fp8|fp4|nvfp4|mxfp4|int4|int8|w\d+a\d+|awq|gptq|gguf|ggml|dynamic|static|bnb|\d+-?bit|i?q\d(_[a-z0-9]+)*|exl2|mlx|quantized|quant|g\d+|bf16|fp16|f16|fp32)$`)

// Model is the identity of a model id and of its base model.
//
// The rule: the variant is the id as uploaded ("RedHatAI/Qwen3.5-4B-FP8-dynamic"
// → slug "redhatai-qwen3-5-4b-fp8-dynamic"). The base is the id's last path
// segment with trailing quantisation and packaging tokens removed, one
// after the other (FP8, dynamic, AWQ, GPTQ, Int4, W4A16, GGUF, Q4_K_M,
// 4bit, BF16, …): "Qwen3.5-4B" → slug "qwen3-5-4b". The organisation is
// dropped from the base so that Qwen's own upload and RedHatAI's quantised
// copy share one base page. Words that change the model itself
// ("Instruct", "Thinking", "2507") stay: they are different models.
func Model(id string) (model, base Identity) {
	if p, ok := modelsSeen.Get(id); ok {
		return p[0], p[1]
	}
	model, base = modelOf(id)
	modelsSeen.Put(id, [2]Identity{model, base})
	return model, base
}

// modelsSeen are the identities Model has made: a report asks for its
// model's several times, and the suffix expression is most of the cost.
var modelsSeen memo.Map[string, [2]Identity]

// modelOf is Model, made.
func modelOf(id string) (model, base Identity) {
	id = strings.TrimSpace(id)
	if id == "" {
		return Identity{}, Identity{}
	}
	model = Identity{Slug: Slugify(id), Name: id}
	name := id
	if i := strings.LastIndex(name, "/"); i >= 0 && i < len(name)-1 {
		name = name[i+1:]
	}
	for {
		loc := quantSuffix.FindStringIndex(name)
		if loc == nil || loc[0] == 0 {
			break
		}
		name = name[:loc[0]]
	}
	base = Identity{Slug: Slugify(name), Name: name}
	if base.Slug == "" {
		base = model
	}
	return model, base
}
