package plan

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
)

// EstimateFormats are the weight formats an estimate tries, as the
// calculator names them: BF16, FP8 and 4-bit (AWQ/GPTQ int4).
var EstimateFormats = []string{"bf16", "fp8", "int4"}

// Estimate is the calculator's upper bound for a model nobody measured on
// the hardware, in one weight format whose weights and KV cache for the
// asked context and users fit its memory (the calculator's own check). It
// is a bound, not a measurement: no engine reaches it.
type Estimate struct {
	Model calculator.Model
	// Weights is the weight format's code (EstimateFormats).
	Weights string
	// Users is the concurrency the bound is computed at: the request's
	// users, or one.
	Users int
	Bound calculator.Bound
	// NeededGB and UsableGB are the memory the calculator asks and finds.
	NeededGB, UsableGB float64
	// MeetsNeed says the bound per request reaches the asked speed; when
	// it does not, no engine will.
	MeetsNeed bool
	// Calculator is the query of the calculator prefilled with this
	// estimate (calculator.Link.Query).
	Calculator string
}

// Estimates are the models of the calculator's table that fit the
// request's hardware at its context and users in one of EstimateFormats,
// leaving out those measured on it (any of setups names them; pass every
// setup the store answered, not only the filtered or shown ones, so a
// model left out of the measured rows never comes back as an estimate).
// gpu is the hardware's row (ok false when the table lacks it: no
// estimates). Sorted by the bound per request, highest first.
func Estimates(r Request, t *calculator.Tables, gpu calculator.GPU, setups []Setup) []Estimate {
	// A hardware's setups name a few models many times over (engines and
	// quantizations of each): each slug is looked up in the table once.
	measured, seen := map[string]bool{}, map[string]bool{}
	for _, s := range setups {
		for _, slug := range []string{s.Key.Model, s.Key.ModelBase} {
			if seen[slug] {
				continue
			}
			seen[slug] = true
			if m, ok := t.ModelByID(slug); ok {
				measured[m.ID] = true
			}
		}
	}
	users := r.NeedUsers()
	head, _ := calculator.PrecisionOf("bf16")
	var out []Estimate
	for _, m := range t.Models {
		if measured[m.ID] || !modelMatches(r.Model, m) {
			continue
		}
		for _, code := range EstimateFormats {
			if r.Quantization != "" && !Matches(r.Quantization, code) {
				continue
			}
			w, _ := calculator.PrecisionOf(code)
			in := calculator.Input{GPU: gpu, Count: r.GPUs, Arch: m.Arch, Weights: w, Head: head, KV: "bf16",
				Context: r.Context, Concurrency: users}
			res := calculator.Calculate(in)
			if !res.Memory.Fits {
				continue
			}
			link := calculator.Link{GPU: gpu.ID, Count: r.GPUs, Model: m.ID, Weights: code, Head: "bf16", KV: "bf16",
				Context: r.Context, Concurrency: users}
			out = append(out, Estimate{Model: m, Weights: code, Users: users, Bound: res.Bound,
				NeededGB: res.Memory.NeededGB, UsableGB: res.Memory.UsableGB,
				MeetsNeed: res.Bound.PerRequestTPS >= r.MinUserTPS, Calculator: link.Query()})
		}
	}
	slices.SortStableFunc(out, func(a, b Estimate) int {
		return cmp.Or(cmp.Compare(b.Bound.PerRequestTPS, a.Bound.PerRequestTPS), cmp.Compare(a.Model.ID, b.Model.ID))
	})
	return out
}

// modelMatches reports whether the model filter f keeps a model of the
// calculator's table, by the catalog's slugs of its id.
func modelMatches(f string, m calculator.Model) bool {
	if f == "" {
		return true
	}
	variant, base := catalog.Model(m.ID)
	return Matches(f, variant.Slug) || Matches(f, base.Slug)
}

// MeasureCommands are the commands that would measure an estimate's
// setup: llm-inference-bench against a server already serving the model
// on port 8000 at the asked context and users, and the lil-bench upload
// of the file it writes.
func MeasureCommands(r Request, e Estimate) []string {
	conc := []string{"1"}
	for n := 2; n <= e.Users; n *= 2 {
		conc = append(conc, strconv.Itoa(n))
	}
	if last := strconv.Itoa(e.Users); conc[len(conc)-1] != last {
		conc = append(conc, last)
	}
	return []string{
		"python3 llm_decode_bench.py --host http://127.0.0.1:8000 --model " + e.Model.ID +
			" --concurrency " + strings.Join(conc, ",") + " --contexts " + strconv.Itoa(r.Context) +
			" --output benchmark_results.json",
		"lil-bench upload benchmark_results.json",
	}
}
