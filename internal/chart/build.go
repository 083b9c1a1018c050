package chart

import (
	"math"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Named is a run with the short name an overlay gives it ("A", "B"); a
// lone run's name is empty.
type Named struct {
	Name string
	Run  *run.Run
}

// ForRun returns the charts of a run page: the three of ForRuns, then
// ForPower's (Group GroupEnergy), which the page shows in its energy
// section.
func ForRun(l *i18n.Localizer, r *run.Run) []*Chart {
	return append(ForRuns(l, "run", []Named{{Run: r}}), ForPower(l, r)...)
}

// ForRuns returns the three charts with the runs overlaid: total tok/s
// against concurrency and per-request against total tok/s (a line per run
// and context), and prefill tok/s against context (a line per run). Lines
// of one context share a colour across runs; each run has its own dash
// and marker. idPrefix keeps the charts' ids unique on the page.
func ForRuns(l *i18n.Localizer, idPrefix string, runs []Named) []*Chart {
	return []*Chart{
		concurrencyChart(l, idPrefix+"-concurrency", runs),
		tradeoffChart(l, idPrefix+"-tradeoff", runs),
		prefillChart(l, idPrefix+"-prefill", runs),
	}
}

// plotted reports whether a cell is drawn: valid and queued cells measured
// real output; the others have no number worth a point.
func plotted(c *run.DecodeCell) bool {
	return (c.Status == run.Valid || c.Status == run.Queued) && c.TotalTPS != nil && c.PerRequestTPS != nil
}

// contexts returns the contexts with a plotted cell across runs, sorted:
// one colour each.
func contexts(runs []Named) []int {
	var out []int
	for _, n := range runs {
		for i := range n.Run.Decode {
			if plotted(&n.Run.Decode[i]) {
				out = append(out, n.Run.Decode[i].Context)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// seriesName is "32K context", or "B · 32K" in an overlay.
func seriesName(l *i18n.Localizer, runName string, ctx int) string {
	if runName == "" {
		return l.T("chart.series.context", map[string]any{"Context": report.ContextLabel(ctx)})
	}
	return l.T("chart.series.run_context", map[string]any{"Run": runName, "Context": report.ContextLabel(ctx)})
}

// decodeSeries makes a line per run and context of the plotted cells,
// ordered by concurrency, with x and y picked by xy.
func decodeSeries(l *i18n.Localizer, runs []Named, xy func(c *run.DecodeCell) (x, y float64, xt, yt string)) ([]Series, int) {
	ctxs := contexts(runs)
	var out []Series
	for ri, n := range runs {
		for ci, ctx := range ctxs {
			s := Series{Name: seriesName(l, n.Name, ctx), Colour: ci, Style: ci}
			if len(runs) > 1 {
				s.Style = ri
			}
			for i := range n.Run.Decode {
				c := &n.Run.Decode[i]
				if c.Context != ctx || !plotted(c) {
					continue
				}
				x, y, xt, yt := xy(c)
				s.Points = append(s.Points, Point{X: x, Y: y, XText: xt, YText: yt, Queued: c.Status == run.Queued})
			}
			if len(s.Points) > 0 {
				out = append(out, s)
			}
		}
	}
	return out, len(ctxs)
}

// tpsTick labels a tok/s tick: whole steps as whole numbers ("800",
// "1,000"), finer ones as the grid writes tok/s ("2.5").
func tpsTick(l *i18n.Localizer) func(v, step float64) string {
	return func(v, step float64) string {
		if step >= 1 {
			n := int64(math.Round(v))
			return report.FormatCount(l, &n)
		}
		return report.FormatTPSCompact(l, &v)
	}
}

func tps(l *i18n.Localizer, v float64) string {
	return l.T("chart.tps", map[string]any{"V": report.FormatTPSCompact(l, &v)})
}

func concurrencyChart(l *i18n.Localizer, id string, runs []Named) *Chart {
	c := &Chart{ID: id, Title: l.T("chart.concurrency.title", nil), Desc: l.T("chart.concurrency.desc", nil)}
	c.X.Label, c.Y.Label = l.T("chart.axis.concurrency", nil), l.T("chart.axis.total_tps", nil)
	c.Series, c.Colours = decodeSeries(l, runs, func(d *run.DecodeCell) (float64, float64, string, string) {
		return float64(d.Concurrency), *d.TotalTPS, l.T("chart.requests", map[string]any{"V": l.Int(int64(d.Concurrency))}), tps(l, *d.TotalTPS)
	})
	var concs []int
	maxY := 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			concs = append(concs, int(p.X))
			maxY = max(maxY, p.Y)
		}
	}
	slices.Sort(concs)
	log2Ticks(&c.X, slices.Compact(concs), func(v int) string { return l.Int(int64(v)) })
	linearTicks(&c.Y, maxY, tpsTick(l))
	c.fillTable(l)
	return c
}

func tradeoffChart(l *i18n.Localizer, id string, runs []Named) *Chart {
	c := &Chart{ID: id, Title: l.T("chart.tradeoff.title", nil), Desc: l.T("chart.tradeoff.desc", nil)}
	c.X.Label, c.Y.Label = l.T("chart.axis.total_tps", nil), l.T("chart.axis.per_request_tps", nil)
	c.Series, c.Colours = decodeSeries(l, runs, func(d *run.DecodeCell) (float64, float64, string, string) {
		return *d.TotalTPS, *d.PerRequestTPS, tps(l, *d.TotalTPS), l.T("chart.per_request", map[string]any{
			"V": report.FormatTPSCompact(l, d.PerRequestTPS), "Concurrency": l.Int(int64(d.Concurrency))})
	})
	maxX, maxY := 0.0, 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			maxX, maxY = max(maxX, p.X), max(maxY, p.Y)
		}
	}
	linearTicks(&c.X, maxX, tpsTick(l))
	linearTicks(&c.Y, maxY, tpsTick(l))
	c.fillTable(l)
	return c
}

func prefillChart(l *i18n.Localizer, id string, runs []Named) *Chart {
	c := &Chart{ID: id, Title: l.T("chart.prefill.title", nil), Desc: l.T("chart.prefill.desc", nil)}
	c.X.Label, c.Y.Label = l.T("chart.axis.context", nil), l.T("chart.axis.prompt_tps", nil)
	var ctxs []int
	maxY := 0.0
	for ri, n := range runs {
		s := Series{Name: n.Name, Colour: ri, Style: ri}
		if s.Name == "" {
			s.Name = l.T("chart.series.prefill", nil)
		}
		for _, p := range n.Run.Prefill {
			if p.Status != run.Valid || p.PromptTPS == nil || p.Context <= 0 {
				continue
			}
			s.Points = append(s.Points, Point{X: float64(p.Context), Y: *p.PromptTPS,
				XText: report.ContextLabel(p.Context), YText: tps(l, *p.PromptTPS)})
			ctxs = append(ctxs, p.Context)
			maxY = max(maxY, *p.PromptTPS)
		}
		if len(s.Points) > 0 {
			c.Series = append(c.Series, s)
		}
	}
	c.Colours = len(runs)
	slices.Sort(ctxs)
	log2Ticks(&c.X, slices.Compact(ctxs), report.ContextLabel)
	linearTicks(&c.Y, maxY, tpsTick(l))
	c.fillTable(l)
	return c
}

// fillTable lists every point: line, x, y, and the status of queued ones.
func (c *Chart) fillTable(l *i18n.Localizer) {
	c.Table.Head = []string{l.T("chart.table.line", nil), c.X.Label, c.Y.Label, l.T("chart.table.status", nil)}
	for _, s := range c.Series {
		for _, p := range s.Points {
			st := ""
			if p.Queued {
				st = report.StatusLabel(l, run.Queued)
			}
			c.Table.Rows = append(c.Table.Rows, []string{s.Name, p.XText, p.YText, st})
		}
	}
}
