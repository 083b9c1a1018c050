package calcview

import (
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
)

// View is the calculator page: the form with its choices, the problems
// with it, and the result when there is one.
type View struct {
	Form     Form
	GPUs     []Option
	Models   []Option
	Weights  []Option
	KV       []Option
	Problems []Problem
	Result   *Result
	// Link is the calculation's address, to copy and share; it opens at
	// the result, below the form.
	Link string
}

// Option is one choice of a select: its value and what the list shows.
type Option struct{ Value, Label string }

// Fact is one labelled, formatted line of the result.
type Fact struct{ Label, Value string }

// Result is a calculation, worded and formatted.
type Result struct {
	ModelName, GPUName string
	Fits               bool
	Memory, Bound      []Fact
	Grid               Grid
	Sources            []Source
}

// Grid is the bound at every context × concurrency.
type Grid struct {
	Columns []string
	Rows    []GridRow
}

// GridRow is one context's bounds.
type GridRow struct {
	Label string
	Cells []GridCell
}

// GridCell is one bound; Current marks the cell the form asked about.
type GridCell struct {
	Text          string
	Fits, Current bool
}

// Source is a table row the result rests on, and how sure it is.
type Source struct{ Name, URL, Confidence string }

// Build is the page for form f, which ParseForm read with problems probs.
func Build(l *i18n.Localizer, t *calculator.Tables, f Form, probs []Problem) View {
	v := View{Form: f, Problems: probs, Link: "/calculator?" + f.Query() + "#result"}
	for _, g := range t.GPUs {
		v.GPUs = append(v.GPUs, Option{g.ID, g.Name})
	}
	for _, m := range t.Models {
		v.Models = append(v.Models, Option{m.ID, m.Name})
	}
	for _, p := range calculator.WeightPrecisions() {
		v.Weights = append(v.Weights, Option{p, l.T("calc.precision."+p, nil)})
	}
	for _, p := range calculator.KVPrecisions() {
		v.KV = append(v.KV, Option{p, l.T("calc.precision."+p, nil)})
	}
	if !f.Submitted || len(probs) > 0 {
		return v
	}
	in, m, more := f.Input(t)
	if v.Problems = more; len(more) > 0 {
		return v
	}
	v.Result = result(l, in, m)
	return v
}

func result(l *i18n.Localizer, in calculator.Input, m *calculator.Model) *Result {
	r := calculator.Calculate(in)
	res := &Result{ModelName: l.T("calc.model.pasted", nil), GPUName: in.GPU.Name, Fits: r.Memory.Fits,
		Memory: memoryFacts(l, in, r.Memory), Bound: boundFacts(l, in, r.Bound), Grid: grid(l, in)}
	res.Sources = append(res.Sources, Source{in.GPU.Name, in.GPU.URL, l.T("calc.confidence."+in.GPU.Confidence, nil)})
	if m != nil {
		res.ModelName = m.Name
		res.Sources = append(res.Sources, Source{m.Name, m.URL, l.T("calc.confidence."+m.Confidence, nil)})
	}
	return res
}

func grid(l *i18n.Localizer, in calculator.Input) Grid {
	var g Grid
	// The asked cell joins the report's axes when it is not on them.
	ctxs, concs := withValue(calculator.Contexts, in.Context), withValue(calculator.Concurrencies, in.Concurrency)
	for _, c := range concs {
		g.Columns = append(g.Columns, l.Int(int64(c)))
	}
	for _, row := range calculator.Grid(in, ctxs, concs) {
		gr := GridRow{Label: report.ContextLabel(row[0].Context)}
		for _, c := range row {
			tps := c.Bound.TotalTPS
			gr.Cells = append(gr.Cells, GridCell{Text: report.FormatTPSCompact(l, &tps), Fits: c.Fits,
				Current: c.Context == in.Context && c.Concurrency == in.Concurrency})
		}
		g.Rows = append(g.Rows, gr)
	}
	return g
}

// withValue is the sorted axis with v on it.
func withValue(axis []int, v int) []int {
	if slices.Contains(axis, v) {
		return axis
	}
	out := append(slices.Clone(axis), v)
	slices.Sort(out)
	return out
}
