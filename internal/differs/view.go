package differs

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/share"
)

// Rival is another run and the cells of this run (Cells' order) at which
// it is the fastest other run of the same hardware, model and
// quantization (the store finds it: Store.FastestOthers).
type Rival struct {
	Run   *run.Run
	Cells []Cell
}

// Section is a report's "What differs", every string in the reader's
// language.
type Section struct {
	// Comparisons are one per rival run, in the order of the cells they
	// are fastest at (the single-stream cell first).
	Comparisons []Comparison
	// Empty says why there is nothing to compare, when there is not.
	Empty string
}

// Comparison is this run beside one rival.
type Comparison struct {
	// Intro is "Fastest other run at 0 × 1:"; OtherTitle and OtherEngine
	// name the rival, OtherHref links its report.
	Intro, OtherTitle, OtherEngine, OtherHref, OtherID string
	OtherDemo                                          bool
	// Gaps are the measured gaps at the cells the rival is fastest at.
	Gaps []GapLine
	// Rows are what differs, the facts known to move decode speed first;
	// None is shown instead when nothing does.
	Rows []Row
	None string
}

// GapLine is the two runs' total tok/s at one cell and this run's gap,
// "−9 %" when it is 9 % slower.
type GapLine struct {
	Label, This, Other, Change string
	// Slower is set when this run is the slower one there.
	Slower bool
}

// Row is one fact that differs; an empty side reads "not stated".
type Row struct {
	Label, This, Other string
	// Speed marks the facts known to move decode speed.
	Speed bool
	// Code is set when Label is a flag, shown as code.
	Code bool
}

// NewSection builds the section of run this against its rivals. The
// wording claims no cause: the rows differ, the gaps are measured.
func NewSection(l *i18n.Localizer, this *run.Run, rivals []Rival) Section {
	var s Section
	for _, rv := range rivals {
		if rv.Run == nil || len(rv.Cells) == 0 {
			continue
		}
		s.Comparisons = append(s.Comparisons, comparison(l, this, rv))
	}
	if len(s.Comparisons) == 0 {
		s.Empty = l.T("differs.empty", nil)
	}
	return s
}

func comparison(l *i18n.Localizer, this *run.Run, rv Rival) Comparison {
	o := rv.Run
	c := Comparison{OtherTitle: report.Title(o, l), OtherEngine: share.EngineName(o),
		OtherHref: paths.Run(o.ID), OtherID: o.ID, OtherDemo: o.Demo}
	var cells []string
	for _, k := range rv.Cells {
		cells = append(cells, CellLabel(l, k))
		g, ok := GapAt(this, o, k)
		if !ok {
			continue
		}
		c.Gaps = append(c.Gaps, GapLine{Label: CellLabel(l, k),
			This: report.FormatTPSCompact(l, &g.This), Other: report.FormatTPSCompact(l, &g.Other),
			Change: report.FormatChange(l, g.Other, g.This), Slower: g.This < g.Other})
	}
	c.Intro = l.T("differs.intro", map[string]any{"Cells": joinList(l, cells)})
	for _, d := range Between(this, o) {
		c.Rows = append(c.Rows, NewRow(l, d))
	}
	if len(c.Rows) == 0 {
		c.None = l.T("differs.none", nil)
	}
	return c
}

// CellLabel is "0 × 1", as the history names a cell.
func CellLabel(l *i18n.Localizer, k Cell) string {
	return l.T("history.cell_label", map[string]any{"Context": report.ContextLabel(k.Context), "Concurrency": l.Int(int64(k.Concurrency))})
}

// NewRow words one difference.
func NewRow(l *i18n.Localizer, d Difference) Row {
	r := Row{Speed: d.Speed, This: value(l, d.Field, d.This), Other: value(l, d.Field, d.Other)}
	if d.Field == FieldFlag {
		r.Label, r.Code = "--"+d.Flag, true
	} else {
		r.Label = l.T(fieldLabels[d.Field], nil)
	}
	return r
}

// fieldLabels are the locale ids naming each field: the report's own
// labels where it has them.
var fieldLabels = map[string]string{
	FieldSpeculative: "differs.field.speculative", FieldKVCache: "differs.field.kv_cache",
	FieldEngine: "run.engine.engine", FieldTensor: "differs.field.tensor_parallel",
	FieldPipeline: "differs.field.pipeline_parallel", FieldGPUCount: "differs.field.gpu_count",
	FieldDriver: "run.hw.driver", FieldBackend: "run.engine.backend", FieldCPU: "run.hw.cpu",
	FieldRAM: "run.hw.ram", FieldOS: "run.hw.os",
}

// value words one side of a row.
func value(l *i18n.Localizer, field, v string) string {
	switch {
	case v == "":
		return l.T("differs.not_stated", nil)
	case field == FieldSpeculative && v == "0":
		return l.T("differs.spec_off", nil)
	case field == FieldSpeculative:
		return l.T("differs.spec_tokens", map[string]any{"N": v})
	case field == FieldRAM:
		return l.T("unit.gb", map[string]any{"V": v})
	}
	return v
}

func joinList(l *i18n.Localizer, parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += l.T("common.list_sep", nil)
		}
		out += p
	}
	return out
}

// Found is the fastest other run found at one cell (what the store's
// FastestOthers returns, by run id).
type Found struct {
	Cell  Cell
	RunID string
}

// Group gathers found into one Rival per run, in the order the runs are
// first found (the single-stream cell's first), loading each run once.
func Group(found []Found, load func(id string) (*run.Run, error)) ([]Rival, error) {
	var out []Rival
	at := map[string]int{}
	for _, f := range found {
		i, ok := at[f.RunID]
		if !ok {
			r, err := load(f.RunID)
			if err != nil {
				return nil, err
			}
			i = len(out)
			at[f.RunID] = i
			out = append(out, Rival{Run: r})
		}
		out[i].Cells = append(out[i].Cells, f.Cell)
	}
	return out, nil
}
