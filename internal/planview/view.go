// Package planview is the planner page's view model: the form read back
// from the request (the address is the question's whole state), the
// measured setups ranked as rows with their bars, and the calculator's
// estimates apart, worded and formatted for one language.
package planview

import (
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/report"
)

// Path is the planner page's address.
const Path = "/plan"

// View is the planner page.
type View struct {
	Form     Form
	Picker   Picker
	Presets  []PresetLink
	Problems []Problem
	// HardwareName names the hardware in the heading; Summary says what
	// was asked, in words.
	HardwareName, Summary string
	// Answered says there is an answer to show (no problems).
	Answered bool
	// Rows are the setups that meet the request, ranked; Unmet the rest;
	// each the first Request.ShownLimit, and More and UnmetMore say how
	// many more there are.
	Rows, Unmet     []Row
	More, UnmetMore More
	// Estimates are the calculator's upper bounds for unmeasured models;
	// NoGPU says the table lacks the hardware, so there are none.
	Estimates []Estimate
	NoGPU     bool
	GPUSource Source
	// APIURL is the same answer as JSON.
	APIURL string
}

// Form is the request as the form's fields show it.
type Form struct {
	Hardware, Context, MinUserTPS, Users string
	Model, Engine, Quantization, Preset  string
	Limit                                string
}

// More says a list shows only the best of its setups: how many of how
// many (Text), and the address listing more (Href, worded Link; empty when
// the list is as long as it gets) or, past the longest list, that the
// filters narrow it (Hint). The zero More: the list is whole.
type More struct{ Text, Href, Link, Hint string }

// Problem is one unusable parameter, worded.
type Problem struct{ Param, Field, Message string }

// PresetLink is one preset as a link on the current hardware.
type PresetLink struct {
	Name, Label, Detail, Href string
	Current                   bool
}

// Row is one measured setup.
type Row struct {
	Rank                        int
	Model, Engine, Quantization string
	Demo                        bool
	Users                       string
	UsersBar, SpeedBar          int // 0–100, the bars' lengths
	Cell, CellURL, ContextNote  string
	PerRequest, Total, TTFT     string
	Derived                     bool
	BoundShare                  string
	LaunchCommand, CopyID       string
	// Note says why an unmet setup does not meet the request.
	Note string
}

// Estimate is one calculator estimate, worded.
type Estimate struct {
	Model, Weights            string
	PerRequest, Total, Memory string
	MeetsNeed                 bool
	CalculatorURL             string
	Commands                  string
	CopyID                    string
	ModelSource               Source
}

// Source is a table row the figures rest on, and how sure it is.
type Source struct{ Name, URL, Confidence string }

// Input is what Build words: the request and its problems, and, when it
// had none, the planner's result.
type Input struct {
	Request      plan.Request
	Problems     []plan.Problem
	HardwareName string
	Result       *plan.Result
	Picker       Picker
}

// Build is the page for in.
func Build(l *i18n.Localizer, in Input) View {
	r := in.Request
	v := View{Picker: in.Picker, HardwareName: in.HardwareName, Form: formOf(r)}
	if v.HardwareName == "" {
		v.HardwareName = hardwareName(l, r, in.Result)
	}
	v.Picker = v.Picker.selecting(r.Hardware, v.HardwareName)
	for _, p := range plan.Presets {
		q := r.WithPreset(p)
		v.Presets = append(v.Presets, PresetLink{Name: p.Name, Label: l.T("plan.preset."+p.Name, nil),
			Detail: l.T("plan.preset.detail", map[string]any{"Context": report.ContextLabel(p.Context),
				"Users": l.Int(int64(p.Users)), "Speed": l.Dec(p.MinUserTPS, 0)}),
			Href: Path + "?" + q.Query(), Current: r.Preset == p.Name && r.Hardware != ""})
	}
	for _, p := range in.Problems {
		v.Problems = append(v.Problems, Problem{Param: p.Param, Field: l.T("plan.field."+p.Param, nil), Message: l.T(p.Message, nil)})
	}
	res := in.Result
	if len(in.Problems) > 0 || res == nil {
		return v
	}
	v.Answered = true
	v.Summary = summary(l, r)
	v.APIURL = "/api/v1/plan?" + r.Query()
	maxUsers, maxSpeed := 1, 1.0
	for _, s := range res.Setups {
		maxUsers, maxSpeed = max(maxUsers, s.MaxUsers), max(maxSpeed, s.PerRequestTPS)
	}
	v.More = more(l, r, "plan.more.setups", len(res.Setups), res.SetupsTotal)
	v.UnmetMore = more(l, r, "plan.more.unmet", len(res.Unmet), res.UnmetTotal)
	for i, s := range res.Setups {
		row := measuredRow(l, res, s)
		row.Rank = i + 1
		row.UsersBar = bar(float64(s.MaxUsers), float64(maxUsers))
		row.SpeedBar = bar(s.PerRequestTPS, maxSpeed)
		row.CopyID = "plan-cmd-" + strconv.Itoa(i+1)
		v.Rows = append(v.Rows, row)
	}
	for _, s := range res.Unmet {
		row := measuredRow(l, res, s)
		row.Note = unmetNote(l, r, s)
		v.Unmet = append(v.Unmet, row)
	}
	v.NoGPU = !res.GPUKnown
	if res.GPUKnown {
		v.GPUSource = Source{res.GPU.Name, res.GPU.URL, l.T("calc.confidence."+res.GPU.Confidence, nil)}
	}
	for i, e := range res.Estimates {
		v.Estimates = append(v.Estimates, estimate(l, r, e, i))
	}
	return v
}

// hardwareName names hardware no measured run named: the calculator's
// row, with the count, or failing that the slug.
func hardwareName(l *i18n.Localizer, r plan.Request, res *plan.Result) string {
	if res == nil || !res.GPUKnown {
		return r.Hardware
	}
	if r.GPUs > 1 {
		return l.T("unit.count_x", map[string]any{"V": r.GPUs}) + res.GPU.Name
	}
	return res.GPU.Name
}

func formOf(r plan.Request) Form {
	f := Form{Hardware: r.Hardware, Model: r.Model, Engine: r.Engine, Quantization: r.Quantization, Preset: r.Preset,
		Context: strconv.Itoa(r.Context), MinUserTPS: strconv.FormatFloat(r.MinUserTPS, 'f', -1, 64)}
	if r.Users > 0 {
		f.Users = strconv.Itoa(r.Users)
	}
	if r.Limit > 0 {
		f.Limit = strconv.Itoa(r.Limit)
	}
	return f
}

// more words a list that shows shown of total setups: the message key
// counts them; the link asks for the longest list, unless r asks it
// already.
func more(l *i18n.Localizer, r plan.Request, key string, shown, total int) More {
	if total <= shown {
		return More{}
	}
	m := More{Text: l.T(key, map[string]any{"Shown": l.Int(int64(shown)), "Total": l.Int(int64(total))})}
	if r.ShownLimit() < plan.MaxLimit {
		all := r
		all.Limit = plan.MaxLimit
		m.Href = Path + "?" + all.Query()
		m.Link = l.T("plan.more.best", map[string]any{"Count": l.Int(plan.MaxLimit)})
		if total <= plan.MaxLimit {
			m.Link = l.T("plan.more.all", map[string]any{"Count": l.Int(int64(total))})
		}
	}
	if total > plan.MaxLimit {
		m.Hint = l.T("plan.more.filter", nil)
	}
	return m
}

// summary is the question in words. One user asked is worded as any
// number: every setup serves one, and the ranking is by how many more.
func summary(l *i18n.Localizer, r plan.Request) string {
	data := map[string]any{"Context": l.Int(int64(r.Context)), "Speed": l.Dec(r.MinUserTPS, 1), "Users": l.Int(int64(r.Users))}
	if r.Users > 1 {
		return l.T("plan.summary.users", data)
	}
	return l.T("plan.summary.any", data)
}

// measuredRow words one setup; the rank, bars and copy id are the
// caller's, as only ranked rows have them.
func measuredRow(l *i18n.Localizer, res *plan.Result, s plan.Setup) Row {
	row := Row{Model: s.ModelName, Engine: s.EngineName, Quantization: s.QuantizationName, Demo: s.Key.Demo,
		Users: l.N("plan.users", s.MaxUsers, map[string]any{"Count": l.Int(int64(s.MaxUsers))})}
	if row.Quantization == "" {
		row.Quantization = s.Key.Quantization
	}
	switch {
	case s.Short:
		row.ContextNote = l.T("plan.context.short", map[string]any{"Tokens": l.Int(int64(s.ContextUsed))})
	case s.Raised:
		row.ContextNote = l.T("plan.context.raised", map[string]any{"Tokens": l.Int(int64(s.ContextUsed))})
	}
	if s.MaxUsers == 0 {
		return row
	}
	row.Cell = l.T("plan.cell", map[string]any{"Context": report.ContextLabel(s.ContextUsed), "Users": l.Int(int64(s.MaxUsers))})
	row.CellURL = paths.RunCell(s.RunID, s.ContextUsed, s.MaxUsers)
	speed := s.PerRequestTPS
	row.PerRequest, row.Derived = tokS(l, &speed), s.Derived
	row.Total, row.TTFT = report.Dash, report.Dash
	if c := s.Cell; c != nil {
		row.Total, row.TTFT = tokS(l, c.TotalTPS), report.FormatTTFT(l, c.TTFTms)
	}
	row.BoundShare = report.Dash
	if b, ok := res.Bounds[s.RunID]; ok && b.OK {
		row.BoundShare = report.FormatEfficiency(l, b.Efficiency)
	}
	if rr := res.Runs[s.RunID]; rr != nil {
		row.LaunchCommand = rr.Engine.LaunchCommand
	}
	return row
}

// unmetNote says why a setup does not meet the request.
func unmetNote(l *i18n.Localizer, r plan.Request, s plan.Setup) string {
	switch {
	case s.Short:
		return l.T("plan.unmet.short", nil)
	case s.MaxUsers == 0:
		return l.T("plan.unmet.none", nil)
	}
	return l.T("plan.unmet.fewer", map[string]any{"Users": l.Int(int64(r.Users))})
}

func estimate(l *i18n.Localizer, r plan.Request, e plan.Estimate, i int) Estimate {
	per, total := e.Bound.PerRequestTPS, e.Bound.TotalTPS
	cmds := ""
	for j, c := range plan.MeasureCommands(r, e) {
		if j > 0 {
			cmds += "\n"
		}
		cmds += c
	}
	return Estimate{Model: e.Model.Name, Weights: l.T("calc.precision."+e.Weights, nil),
		PerRequest: report.FormatTPS(l, &per), Total: report.FormatTPS(l, &total),
		Memory:    l.T("plan.estimate.memory", map[string]any{"Needed": l.Dec(e.NeededGB, 1), "Usable": l.Dec(e.UsableGB, 1)}),
		MeetsNeed: e.MeetsNeed, CalculatorURL: report.CalculatorPath + "?" + e.Calculator + "#result",
		Commands: cmds, CopyID: "plan-est-" + strconv.Itoa(i+1),
		ModelSource: Source{e.Model.Name, e.Model.URL, l.T("calc.confidence."+e.Model.Confidence, nil)}}
}

// tokS is a rate with its unit ("28.0 tok/s"), or the dash.
func tokS(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return report.Dash
	}
	return l.T("unit.tok_s", map[string]any{"V": report.FormatTPS(l, v)})
}

// bar is v's share of the largest, as a bar's length out of 100, at
// least 2 so a row's bar is never invisible.
func bar(v, largest float64) int {
	if largest <= 0 || v <= 0 {
		return 0
	}
	return max(2, min(100, int(v/largest*100+0.5)))
}

// Picker is the GPU picker: the hardware measured on the site, then the
// calculator's GPUs nobody measured yet (estimates only).
type Picker struct {
	Measured, Table []Option
	Selected        string
}

// Option is one choice of the picker.
type Option struct{ Value, Label string }

// selecting is p with slug selected, listed first among the measured
// when neither list has it (a count of a table GPU, "2x-rtx-3090-24gb").
func (p Picker) selecting(slug, name string) Picker {
	p.Selected = slug
	if slug == "" {
		return p
	}
	for _, list := range [][]Option{p.Measured, p.Table} {
		for _, o := range list {
			if o.Value == slug {
				return p
			}
		}
	}
	p.Measured = append([]Option{{slug, name}}, p.Measured...)
	return p
}

// NewPicker is the picker from the measured hardware identities and the
// calculator's table; a table GPU measured as one card is listed once.
func NewPicker(measured []catalog.Identity, t *calculator.Tables) Picker {
	var p Picker
	seen := map[string]bool{}
	for _, id := range measured {
		p.Measured = append(p.Measured, Option{id.Slug, id.Name})
		seen[id.Slug] = true
	}
	if t != nil {
		for _, g := range t.GPUs {
			if !seen[g.ID] {
				p.Table = append(p.Table, Option{g.ID, g.Name})
			}
		}
	}
	return p
}
