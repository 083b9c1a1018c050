package history

import (
	"net/url"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Path is the history page's address.
const Path = "/history"

// URL is the history of q's setup at q's cell; the default cell (0 × 1)
// is left out, so a setup has one address.
func URL(q store.HistoryQuery) string {
	v := url.Values{}
	v.Set("model", q.Model)
	v.Set("hardware", q.Hardware)
	v.Set("engine", q.Engine)
	if q.Quantization != "" {
		v.Set("quant", q.Quantization)
	}
	if q.Context != 0 || q.Concurrency > 1 {
		v.Set("cell", CellValue(q.Context, q.Concurrency))
	}
	return Path + "?" + v.Encode()
}

// CellValue is a cell as the form's select names it: "32768x8".
func CellValue(ctx, conc int) string { return strconv.Itoa(ctx) + "x" + strconv.Itoa(conc) }

// Row is one version on the page's table.
type Row struct {
	Version, Value string
	// Change is "+12 %" over the version before, empty for the first.
	Change string
	// RunHref links the run that holds the version's best.
	RunHref, RunID string
	Demo           bool
}

// Option is one choice of a select.
type Option struct {
	Value, Label string
	Selected     bool
}

// Page is /history.
type Page struct {
	Title string
	// Query is the setup and cell shown.
	Query store.HistoryQuery
	// Cells and Quants are the form's choices.
	Cells, Quants []Option
	Chart         *chart.Chart
	Rows          []Row
	// Latest is "+12 % since 0.31.0": the newest version over the one before.
	Latest string
	// Empty says why there is nothing to chart, when there is not.
	Empty string
	// Links lead to the setup's entity pages.
	Links []report.Fact
}

// Ordered sorts points by engine version, oldest first.
func Ordered(pts []store.HistoryPoint) []store.HistoryPoint {
	out := slices.Clone(pts)
	slices.SortStableFunc(out, func(a, b store.HistoryPoint) int { return Compare(a.EngineVersion, b.EngineVersion) })
	return out
}

// Names are the display names of the setup's slugs.
type Names struct{ Model, Hardware, Engine string }

// NewPage builds the page of q from the store's points and options.
func NewPage(l *i18n.Localizer, q store.HistoryQuery, n Names, pts []store.HistoryPoint, o store.HistoryOptions) Page {
	p := Page{Query: q, Title: l.T("history.title", map[string]any{"Model": n.Model, "Hardware": n.Hardware, "Engine": n.Engine})}
	p.Cells = cellOptions(l, q, o.Cells)
	for _, quant := range o.Quantizations {
		p.Quants = append(p.Quants, Option{Value: quant, Label: quant, Selected: quant == q.Quantization})
	}
	p.Links = []report.Fact{
		{Label: l.T("browse.col.model", nil), Value: n.Model, Link: paths.Model(q.Model)},
		{Label: l.T("browse.col.hardware", nil), Value: n.Hardware, Link: paths.Hardware(q.Hardware)},
		{Label: l.T("browse.col.engine", nil), Value: n.Engine, Link: paths.Engine(q.Engine)},
	}
	pts = Ordered(pts)
	if len(pts) == 0 {
		p.Empty = l.T("history.empty", nil)
		return p
	}
	cell := l.T("history.cell_label", map[string]any{"Context": report.ContextLabel(q.Context), "Concurrency": l.Int(int64(q.Concurrency))})
	var cps []chart.VersionPoint
	for i, pt := range pts {
		v := pt.Value
		row := Row{Version: pt.EngineVersion, Value: report.FormatTPS(l, &v), RunID: pt.RunID,
			RunHref: paths.RunCell(pt.RunID, q.Context, q.Concurrency), Demo: pt.Demo}
		if i > 0 {
			row.Change = report.FormatChange(l, pts[i-1].Value, pt.Value)
		}
		p.Rows = append(p.Rows, row)
		cps = append(cps, chart.VersionPoint{Version: pt.EngineVersion, Value: pt.Value})
	}
	if n := len(pts); n > 1 {
		p.Latest = l.T("history.since", map[string]any{"Change": p.Rows[n-1].Change, "Version": pts[n-2].EngineVersion})
	}
	p.Chart = chart.ForHistory(l, "history", l.T("history.chart_title", map[string]any{"Cell": cell}), cps)
	return p
}

// cellOptions offers every cell the setup measured, and the asked one.
func cellOptions(l *i18n.Localizer, q store.HistoryQuery, cells []store.GridPoint) []Option {
	want := store.GridPoint{Context: q.Context, Concurrency: q.Concurrency}
	if !slices.Contains(cells, want) {
		cells = append(slices.Clone(cells), want)
		slices.SortFunc(cells, func(a, b store.GridPoint) int {
			if a.Context != b.Context {
				return a.Context - b.Context
			}
			return a.Concurrency - b.Concurrency
		})
	}
	out := make([]Option, len(cells))
	for i, c := range cells {
		out[i] = Option{Value: CellValue(c.Context, c.Concurrency), Selected: c == want,
			Label: l.T("history.cell_label", map[string]any{"Context": report.ContextLabel(c.Context), "Concurrency": l.Int(int64(c.Concurrency))})}
	}
	return out
}

// EarlierExists reports whether versions holds one before version: a
// report links to its setup's history then.
func EarlierExists(version string, versions []string) bool {
	for _, v := range versions {
		if v != version && Compare(v, version) < 0 {
			return true
		}
	}
	return false
}
