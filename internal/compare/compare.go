// Package compare lays two to four runs side by side: their decode grids on
// the union of their axes, and the ratio of each run's total tok/s over the
// first's, cell by cell, where both cells have a number worth dividing.
package compare

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// MaxRuns is the most runs one comparison shows; more would not fit a
// screen side by side.
const MaxRuns = 4

// View is a comparison as the page shows it.
type View struct {
	Runs []Item
	// Columns are the union of the runs' concurrencies.
	Columns []report.Column
	// Grids are the runs' decode grids on the union axes, in Runs order.
	Grids []Grid
	// Ratios are run 2 ÷ run 1, run 3 ÷ run 1, …
	Ratios []Ratios
	Charts []*chart.Chart
	// Demo is set when any run is demo data.
	Demo bool
}

// Item names one run of the comparison.
type Item struct {
	// Letter is "A", "B", …: the runs' short names in headings and charts.
	Letter, ID, URL, Title, EngineLine, Summary string
	Demo                                        bool
}

// Grid is one run's decode grid on the union axes.
type Grid struct {
	Letter, Title string
	Rows          []Row
}

// Row is one context of a grid.
type Row struct {
	ContextTokens int
	Label         string
	Cells         []Cell
}

// Cell is a report cell, or a gap where the run's grid lacks the point.
type Cell struct {
	report.Cell
	Absent bool
}

// Ratios is one run's grid divided by the first run's.
type Ratios struct {
	// Label is "B ÷ A".
	Label string
	Rows  []RatioRow
}

// RatioRow is one context of a ratio grid.
type RatioRow struct {
	ContextTokens int
	Label         string
	Cells         []Ratio
}

// Ratio is one cell of a ratio grid: a number, or why there is none.
type Ratio struct {
	Context, Concurrency int
	// Value is the ratio of total tok/s; Text is it formatted. Both empty
	// when OK is false.
	Value float64
	Text  string
	OK    bool
	// Queued marks a ratio where either cell queued requests: the figure
	// compares runs that did not run every stream at once.
	Queued bool
	// Why says why there is no ratio ("A: Over capacity").
	Why string
}

var letters = []string{"A", "B", "C", "D"}

// Build compares runs (2 to MaxRuns of them, already loaded) in l's
// language.
func Build(l *i18n.Localizer, runs []*run.Run) *View {
	v := &View{}
	ctxs, concs := report.Axes(runs...)
	for _, c := range concs {
		v.Columns = append(v.Columns, report.Column{Concurrency: c, Label: l.Int(int64(c))})
	}
	cells := make([]map[key]report.Cell, len(runs))
	named := make([]chart.Named, len(runs))
	for i, r := range runs {
		rv := report.Build(r, l)
		v.Runs = append(v.Runs, Item{Letter: letters[i], ID: r.ID, URL: paths.Run(r.ID),
			Title: rv.Title, EngineLine: rv.EngineLine, Summary: rv.Summary, Demo: r.Demo})
		v.Demo = v.Demo || r.Demo
		cells[i] = map[key]report.Cell{}
		decode := cellMap(r)
		for _, row := range rv.Grid.Rows {
			for _, c := range row.Cells {
				// Tokens per joule side by side, where the file measured power.
				if d := decode[key{c.Context, c.Concurrency}]; hasNumber(d) && d.TokensPerJoule() != nil {
					c.TPJ = report.FormatTPJ(l, d.TokensPerJoule())
				}
				cells[i][key{c.Context, c.Concurrency}] = c
			}
		}
		v.Grids = append(v.Grids, grid(letters[i], rv.Title, ctxs, concs, cells[i]))
		named[i] = chart.Named{Name: letters[i], Run: r}
	}
	for i := 1; i < len(runs); i++ {
		v.Ratios = append(v.Ratios, ratios(l, i, ctxs, concs, runs[0], runs[i]))
	}
	v.Charts = chart.ForRuns(l, "cmp", named)
	return v
}

type key struct{ ctx, conc int }

func grid(letter, title string, ctxs, concs []int, cells map[key]report.Cell) Grid {
	g := Grid{Letter: letter, Title: title}
	for _, ctx := range ctxs {
		row := Row{ContextTokens: ctx, Label: report.ContextLabel(ctx)}
		for _, conc := range concs {
			c, ok := cells[key{ctx, conc}]
			if !ok || c.Status == "" {
				c = report.Cell{Context: ctx, Concurrency: conc}
			}
			row.Cells = append(row.Cells, Cell{Cell: c, Absent: c.Status == ""})
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

func ratios(l *i18n.Localizer, i int, ctxs, concs []int, base, other *run.Run) Ratios {
	a, b := cellMap(base), cellMap(other)
	out := Ratios{Label: l.T("compare.ratio_label", map[string]any{"Run": letters[i], "Base": letters[0]})}
	for _, ctx := range ctxs {
		row := RatioRow{ContextTokens: ctx, Label: report.ContextLabel(ctx)}
		for _, conc := range concs {
			k := key{ctx, conc}
			row.Cells = append(row.Cells, ratio(l, ctx, conc, letters[0], a[k], letters[i], b[k]))
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

func cellMap(r *run.Run) map[key]*run.DecodeCell {
	m := make(map[key]*run.DecodeCell, len(r.Decode))
	for i := range r.Decode {
		m[key{r.Decode[i].Context, r.Decode[i].Concurrency}] = &r.Decode[i]
	}
	return m
}

// hasNumber reports whether a cell's total tok/s may be divided: valid and
// queued cells measured real output (status decided it; this only reads).
func hasNumber(c *run.DecodeCell) bool {
	return c != nil && (c.Status == run.Valid || c.Status == run.Queued) && c.TotalTPS != nil
}

// ratio divides b's total tok/s by a's, or says why it cannot: a side
// missing from its grid, or a status without a number, named per side.
func ratio(l *i18n.Localizer, ctx, conc int, la string, a *run.DecodeCell, lb string, b *run.DecodeCell) Ratio {
	r := Ratio{Context: ctx, Concurrency: conc}
	var why []string
	for _, side := range []struct {
		letter string
		c      *run.DecodeCell
	}{{la, a}, {lb, b}} {
		switch {
		case side.c == nil:
			why = append(why, l.T("compare.why.absent", map[string]any{"Run": side.letter}))
		case !hasNumber(side.c):
			why = append(why, l.T("compare.why.status", map[string]any{"Run": side.letter, "Status": report.StatusLabel(l, side.c.Status)}))
		}
	}
	if len(why) == 0 && *a.TotalTPS <= 0 {
		why = append(why, l.T("compare.why.zero", map[string]any{"Run": la}))
	}
	if len(why) > 0 {
		r.Why = strings.Join(why, l.T("common.list_sep", nil))
		return r
	}
	r.OK, r.Value = true, *b.TotalTPS / *a.TotalTPS
	r.Text = report.FormatRatio(l, r.Value)
	r.Queued = a.Status == run.Queued || b.Status == run.Queued
	return r
}
