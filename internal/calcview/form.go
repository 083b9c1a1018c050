// Package calcview is the calculator page's view model: the form read from
// the query (the URL is the calculation's whole state, so a result can be
// linked), and the result worded and formatted for one language.
package calcview

import (
	"errors"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
)

// MaxConfigBytes caps a pasted config.json: real ones are 1–10 KB, and the
// whole form travels in the URL.
const MaxConfigBytes = 32 << 10

// Form is the calculator's inputs as the query gives them: a
// calculator.Link, whose Query is the one encoding of the address.
type Form struct {
	calculator.Link
	// Submitted says the query asked for a calculation (it names a GPU).
	Submitted bool
}

// Problem is one field the calculator cannot use, with the message id
// that says why.
type Problem struct {
	Field, Message string
	// Detail is what the message names: the config field at fault.
	Detail string
}

// The fields' limits: beyond them no deployment exists to bound.
var limits = map[string][2]int{
	"gpu_count": {1, 64}, "context": {0, 10 << 20}, "concurrency": {1, 4096}, "spec_tokens": {0, 16},
}

// ParseForm reads the calculator's query. Absent fields take the defaults
// a first visit shows; fields that are present but unusable are problems.
func ParseForm(q url.Values) (Form, []Problem) {
	f := Form{Link: calculator.Link{
		GPU: strings.TrimSpace(q.Get("gpu")), Model: strings.TrimSpace(q.Get("model")),
		Config:  strings.TrimSpace(q.Get("config")),
		Weights: orDefault(q.Get("weights"), "bf16"), Head: orDefault(q.Get("head"), "bf16"),
		KV: orDefault(q.Get("kv"), "bf16"), Acceptance: 0.7,
	}}
	f.Submitted = f.GPU != ""
	var probs []Problem
	num := func(field string, def int) int {
		s := strings.TrimSpace(q.Get(field))
		if s == "" {
			return def
		}
		v, err := strconv.Atoi(s)
		if lim := limits[field]; err != nil || v < lim[0] || v > lim[1] {
			probs = append(probs, Problem{Field: field, Message: "calc.error.range"})
			return def
		}
		return v
	}
	f.Count, f.Context = num("gpu_count", 1), num("context", 0)
	f.Concurrency, f.SpecTokens = num("concurrency", 1), num("spec_tokens", 0)
	if s := strings.TrimSpace(q.Get("acceptance")); s != "" {
		a, err := strconv.ParseFloat(s, 64)
		if err != nil || !(a >= 0 && a <= 1) {
			probs = append(probs, Problem{Field: "acceptance", Message: "calc.error.range"})
		} else {
			f.Acceptance = a
		}
	}
	if _, ok := calculator.PrecisionOf(f.Weights); !ok {
		probs = append(probs, Problem{Field: "weights", Message: "calc.error.precision"})
	}
	if _, ok := calculator.PrecisionOf(f.Head); !ok {
		probs = append(probs, Problem{Field: "head", Message: "calc.error.precision"})
	}
	if !slices.Contains(calculator.KVPrecisions(), f.KV) {
		probs = append(probs, Problem{Field: "kv", Message: "calc.error.precision"})
	}
	if len(f.Config) > MaxConfigBytes {
		probs = append(probs, Problem{Field: "config", Message: "calc.error.config_size"})
	}
	return f, probs
}

// Input is the calculation the form asks for, with the model from the
// pasted config when there is one (model is then nil), else from the
// table; problems name the fields that found nothing.
func (f Form) Input(t *calculator.Tables) (in calculator.Input, model *calculator.Model, probs []Problem) {
	in = calculator.Input{Count: f.Count, KV: f.KV, Context: f.Context, Concurrency: f.Concurrency,
		SpecTokens: f.SpecTokens, Acceptance: f.Acceptance}
	in.Weights, _ = calculator.PrecisionOf(f.Weights)
	in.Head, _ = calculator.PrecisionOf(f.Head)
	g, ok := t.GPUByID(f.GPU)
	if !ok {
		probs = append(probs, Problem{Field: "gpu", Message: "calc.error.gpu"})
	}
	in.GPU = g
	switch {
	case f.Config != "":
		a, err := calculator.ReadConfig([]byte(f.Config))
		if err != nil {
			var fe *calculator.FieldError
			detail := ""
			if errors.As(err, &fe) {
				detail = fe.Field
			}
			probs = append(probs, Problem{"config", "calc.error.config", detail})
		}
		in.Arch = a
	default:
		m, ok := t.ModelByID(f.Model)
		if !ok {
			probs = append(probs, Problem{Field: "model", Message: "calc.error.model"})
		}
		in.Arch, model = m.Arch, &m
	}
	return in, model, probs
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(strings.ToLower(s)); s == "" {
		return def
	}
	return s
}
