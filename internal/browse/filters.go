package browse

import (
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Choices are the identities the filter forms offer, by kind: every kind
// ChoiceKinds names.
type Choices map[string][]catalog.Identity

// filterParams are the URL parameters of the filters, in the form's
// order, with the kinds each offers: the model filter offers base models
// (all their variants) before variants.
var filterParams = []struct {
	param string
	kinds []string
}{
	{"model", []string{store.KindModelBase, store.KindModel}},
	{"hardware", []string{store.KindHardware}},
	{"engine", []string{store.KindEngine}},
	{"quant", []string{store.KindQuantization}},
	{"submitter", []string{store.KindSubmitter}},
}

// ChoiceKinds are the kinds of identity the filter forms offer, for the
// handler to load into Choices.
func ChoiceKinds() []string {
	var out []string
	for _, p := range filterParams {
		out = append(out, p.kinds...)
	}
	return out
}

// Filters is the filter form of a page posting to action: every choice of
// each filter ("all" first), the ones of f selected. A value of f that no
// choice has (a slug no run names, from a typed or stale link) is offered
// too, selected and said to match no run: the form shows the filter that
// emptied the list rather than "all" above an empty list.
func Filters(l *i18n.Localizer, action string, f store.RunFilter, choices Choices) FilterForm {
	form := FilterForm{Action: action, EngineVersion: f.EngineVersion, ClearHref: action}
	for _, p := range filterParams {
		sel := Select{Name: p.param, Label: l.T("browse.filter."+p.param, nil),
			Options: []Option{{Value: "", Label: l.T("browse.filter.all", nil)}}}
		current := filterValue(f, p.param)
		found := current == ""
		for _, kind := range p.kinds {
			for _, id := range choices[kind] {
				label := id.Name
				if kind == store.KindModelBase {
					label = l.T("browse.filter.all_variants", map[string]any{"Name": id.Name})
				}
				sel.Options = append(sel.Options, Option{Value: id.Slug, Label: label, Selected: id.Slug == current})
				found = found || id.Slug == current
			}
		}
		if !found {
			sel.Options = append(sel.Options, Option{Value: current, Selected: true,
				Label: l.T("browse.filter.no_runs", map[string]any{"Value": current})})
		}
		form.Selects = append(form.Selects, sel)
	}
	return form
}

// filterValue is f's value of one filter parameter.
func filterValue(f store.RunFilter, param string) string {
	switch param {
	case "model":
		return f.Model
	case "hardware":
		return f.Hardware
	case "engine":
		return f.Engine
	case "quant":
		return f.Quantization
	case "submitter":
		return f.Submitter
	}
	return ""
}
