// Package catalog turns the free-form names runs carry (a GPU as nvidia-smi
// or a person spelled it, an engine, a model id, a submitter) into stable
// identities: a slug for addresses and filters, and a name for display.
//
// The rules are a short table of patterns, not a list of every product: an
// unknown name is never refused, it gets a slug of its own. Slugs are part of
// addresses (/hardware/rtx-3060-12gb), so a rule change that moves a slug
// must bump Version; the store then recomputes every run's slugs at start.
package catalog

import (
	"strings"
	"unicode"
)

// Version numbers the rules. The store keeps, per run, the version its slugs
// were computed with and recomputes older ones when it migrates.
//
// 2: a submitter name typed without a token or session (claimed, not
// verified) no longer has a slug.
const Version = 2

// Identity is one normalised thing: Slug is lowercase, URL-safe and stable;
// Name is for display ("RTX 3060 12GB"). An empty input gives an empty
// Identity: there is no page for "unknown".
type Identity struct {
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// maxSlug bounds a slug's length in runes: long model ids stay readable.
const maxSlug = 96

// Slugify lowercases s and joins its runs of letters and digits with "-".
// Letters of any script are kept ("田中" stays "田中"), so a handle in
// Japanese is not reduced to nothing.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	n := 0
	for _, r := range strings.ToLower(s) {
		if n >= maxSlug {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
				n++
			}
			b.WriteRune(r)
			n++
			dash = false
			continue
		}
		dash = true
	}
	return strings.Trim(b.String(), "-")
}

// Submitter is the identity of a handle: the handle as typed for display,
// its slug for /submitters/{handle}.
func Submitter(handle string) Identity {
	handle = strings.TrimSpace(handle)
	return Identity{Slug: Slugify(handle), Name: handle}
}

// engines maps the spellings of well-known engines (compared after
// Slugify, and with "-" removed) to their identity.
var engines = []struct {
	spellings []string
	id        Identity
}{
	{[]string{"vllm", "vllm-openai"}, Identity{"vllm", "vLLM"}},
	{[]string{"sglang"}, Identity{"sglang", "SGLang"}},
	{[]string{"llama-cpp", "llamacpp", "llama-server", "llama-cpp-server"}, Identity{"llama-cpp", "llama.cpp"}},
	{[]string{"ollama"}, Identity{"ollama", "Ollama"}},
	{[]string{"tensorrt-llm", "trt-llm", "trtllm"}, Identity{"tensorrt-llm", "TensorRT-LLM"}},
	{[]string{"tgi", "text-generation-inference"}, Identity{"tgi", "TGI"}},
	{[]string{"lmdeploy"}, Identity{"lmdeploy", "LMDeploy"}},
	{[]string{"mlx-lm", "mlx"}, Identity{"mlx-lm", "MLX LM"}},
	{[]string{"exllamav2", "exllama-v2", "tabbyapi"}, Identity{"exllamav2", "ExLlamaV2"}},
	{[]string{"ktransformers"}, Identity{"ktransformers", "KTransformers"}},
}

// Engine is the identity of an engine name: "vLLM", "vllm" and
// "vllm-openai" are one engine; "llama.cpp", "llama-server" and "llamacpp"
// another. An unknown engine keeps its name and gets its own slug.
func Engine(name string) Identity {
	name = strings.TrimSpace(name)
	slug := Slugify(name)
	if slug == "" {
		return Identity{}
	}
	flat := strings.ReplaceAll(slug, "-", "")
	for _, e := range engines {
		for _, s := range e.spellings {
			if slug == s || flat == strings.ReplaceAll(s, "-", "") {
				return e.id
			}
		}
	}
	return Identity{Slug: slug, Name: name}
}
