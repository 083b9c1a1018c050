package share

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// table is a grid of already-worded cells, which each export lays out in
// its own syntax.
type table struct {
	header []string
	rows   [][]string
}

// CellText words one decode cell the way every export does: "63.5 · 96 ms"
// (total tok/s and median TTFT) for a valid cell, the same followed by the
// status label for a queued one, and the status label alone otherwise.
func CellText(l *i18n.Localizer, c *run.DecodeCell) string {
	sep := l.T("common.dot_sep", nil)
	switch c.Status {
	case run.Valid, run.Queued:
		s := report.FormatTPSCompact(l, c.TotalTPS)
		if c.TTFTms != nil {
			s += sep + report.FormatTTFT(l, c.TTFTms)
		}
		if c.Status == run.Queued {
			s += " (" + report.StatusLabel(l, c.Status) + ")"
		}
		if c.Throttled() {
			s += " (" + report.ThrottleLabel(l, *c.Throttle) + ")"
		}
		return s
	}
	return report.StatusLabel(l, c.Status)
}

// energyTable is the decode grid of what the GPU boards drew: "0.392
// tok/J · 388 W" per cell, a dash where the file measured no power; the
// zero table when no cell has any.
func energyTable(g *report.Grid, r *run.Run, l *i18n.Localizer) table {
	if !report.HasTelemetry(r) {
		return table{}
	}
	t := table{header: []string{l.T("run.grid.context", nil)}}
	for _, c := range g.Columns {
		t.header = append(t.header, c.Label)
	}
	sep := l.T("common.dot_sep", nil)
	for _, gr := range g.Rows {
		row := []string{gr.Label}
		for _, gc := range gr.Cells {
			text := ""
			if c := cellAt(r, gc.Context, gc.Concurrency); c != nil && c.PowerW != nil {
				tpj := c.TokensPerJoule()
				if c.Status != run.Valid && c.Status != run.Queued {
					tpj = nil
				}
				text = report.FormatTPJ(l, tpj) + sep + report.FormatWatts(l, c.PowerW)
			}
			row = append(row, text)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// tables are what every export of one run in one language shows, worded
// once for all of them on a report's miss: the decode and prefill tables,
// the lines above them, and the tables as aligned text.
type tables struct {
	decode, prefill table
	// energy is energyTable's, without rows when the run has no power.
	energy table
	// title, numbers and the rest are report.Title, Numbers,
	// EngineLineDisplay, Byline, report.Summary and report.MedianLine.
	title, engine, byline, summary, median string
	numbers                                []string
	grids                                  string // the tables as text (text.go)
}

func newTables(r *run.Run, l *i18n.Localizer) *tables {
	return newTablesOf(report.Build(r, l), r, l)
}

// newTablesOf is newTables with the report built already: its title,
// summary and median line (the bound's, which is MedianLine's) are the
// exports' own.
func newTablesOf(v *report.View, r *run.Run, l *i18n.Localizer) *tables {
	t := &tables{decode: decodeTable(&v.Grid, r, l), title: v.Title, numbers: Numbers(r, l),
		engine: EngineLineDisplay(r, l), byline: Byline(r, l), summary: v.Summary, median: v.Bound.Median}
	if len(r.Prefill) > 0 {
		t.prefill = prefillTable(r, l)
	}
	t.energy = energyTable(&v.Grid, r, l)
	t.grids = grids(r, l, t)
	return t
}

// headline is Headline from the parts made already.
func (t *tables) headline(r *run.Run, l *i18n.Localizer) string {
	return headlineOf(t.title, r, t.numbers, l)
}

// decodeTable is the decode grid: a row per context, a column per
// concurrency, in the page's order. A cell missing from a hand-built run
// stays empty.
func decodeTable(g *report.Grid, r *run.Run, l *i18n.Localizer) table {
	t := table{header: []string{l.T("run.grid.context", nil)}}
	for _, c := range g.Columns {
		t.header = append(t.header, c.Label)
	}
	for _, gr := range g.Rows {
		row := []string{gr.Label}
		for _, gc := range gr.Cells {
			text := ""
			if c := cellAt(r, gc.Context, gc.Concurrency); c != nil {
				text = CellText(l, c)
			}
			row = append(row, text)
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// prefillTable is the prefill rows: context, prompt tok/s, TTFT, or the
// status label in place of the numbers.
func prefillTable(r *run.Run, l *i18n.Localizer) table {
	t := table{header: []string{l.T("run.grid.context", nil), l.T("share.prompt_tps", nil), l.T("run.table.ttft", nil)}}
	for i := range r.Prefill {
		p := &r.Prefill[i]
		if p.Status == run.Valid {
			t.rows = append(t.rows, []string{report.ContextLabel(p.Context),
				report.FormatTPSCompact(l, p.PromptTPS), report.FormatTTFT(l, p.TTFTms)})
			continue
		}
		label := report.StatusLabel(l, p.Status)
		t.rows = append(t.rows, []string{report.ContextLabel(p.Context), label, label})
	}
	return t
}

// cellAt finds the decode cell at (context, concurrency).
func cellAt(r *run.Run, ctx, conc int) *run.DecodeCell {
	for i := range r.Decode {
		if c := &r.Decode[i]; c.Context == ctx && c.Concurrency == conc {
			return c
		}
	}
	return nil
}
