package browse

import (
	"math"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// The grid points a leaderboard offers; a point in the URL but not here is
// offered too.
var (
	leaderContexts      = []int{0, 8192, 16384, 32768, 65536, 131072}
	leaderConcurrencies = []int{1, 2, 4, 8, 16, 32, 64, 128}
)

// Board is a leaderboard as the store answered its query.
type Board struct {
	Query store.LeaderQuery
	// Rows are the ranked best valid cells; Queued the best queued ones,
	// loaded when ShowQueued asks for them.
	Rows, Queued []store.LeaderRow
	ShowQueued   bool
	// Unpowered is how many runs a tokens-per-joule board leaves out for
	// want of a power measurement (store.Unpowered).
	Unpowered int
}

// NewLeaderboardPage is /leaderboard: the grid point, metric and filter
// form, the heading naming what is ranked, the ranked rows and, when
// asked, the queued ones.
func NewLeaderboardPage(l *i18n.Localizer, b Board, choices Choices) LeaderboardPage {
	q := b.Query
	p := LeaderboardPage{Rows: LeaderRows(l, q, b.Rows, true), ShowQueued: b.ShowQueued}
	if b.ShowQueued {
		p.Queued = LeaderRows(l, q, b.Queued, false)
	}
	p.Form = Filters(l, "/leaderboard", q.Filter, choices)
	showQueued, includeFlagged := b.ShowQueued, q.IncludeFlagged
	p.Form.Queued, p.Form.IncludeFlagged = &showQueued, &includeFlagged
	p.Form.Selects = append([]Select{
		pointSelect("ctx", l.T("leaderboard.context", nil), leaderContexts, q.Context, report.ContextLabel),
		pointSelect("conc", l.T("leaderboard.concurrency", nil), leaderConcurrencies, q.Concurrency, strconv.Itoa),
		metricSelect(l, q.Metric),
	}, p.Form.Selects...)
	p.Heading = l.T("leaderboard.heading", map[string]any{"Context": report.ContextLabel(q.Context),
		"Concurrency": l.Int(int64(q.Concurrency)), "Metric": l.T("metric."+q.Metric, nil)})
	if q.Metric == store.MetricTPJ {
		p.Note = l.T("energy.note", nil)
		if b.Unpowered > 0 {
			p.Unpowered = l.N("leaderboard.unpowered", b.Unpowered, nil)
		}
	}
	return p
}

// LeaderRows turns the best cells q found into rows, each linking its run
// with the cell highlighted. Ranked rows are numbered from 1; unranked
// ones (queued cells) have rank 0.
func LeaderRows(l *i18n.Localizer, q store.LeaderQuery, rows []store.LeaderRow, ranked bool) []LeaderRow {
	out := make([]LeaderRow, len(rows))
	best := bestValue(q.Metric, rows)
	for i, r := range rows {
		// Only a verified name has a slug (store/bests: runIdentities); a
		// claimed one is shown bare, with a mark the legend explains.
		submitter := link(r.SubmitterSlug, r.Submitter, paths.Submitter)
		claimed := r.Submitter != "" && r.SubmitterSlug == ""
		out[i] = LeaderRow{
			RunID:        r.RunID,
			Href:         paths.RunCell(r.RunID, q.Context, q.Concurrency),
			Model:        link(r.ModelSlug, r.ModelName, paths.Model),
			Hardware:     link(r.HardwareSlug, r.HardwareName, paths.Hardware),
			Engine:       link(r.EngineSlug, r.EngineName, paths.Engine),
			Submitter:    submitter,
			Claimed:      claimed,
			Quantization: r.Quantization, EngineVersion: r.EngineVersion,
			Value: formatMetric(l, q.Metric, r.Value), Demo: r.Demo, Flags: report.FlagBadges(l, r.Flags),
			Bar: barPercent(q.Metric, r.Value, best),
		}
		if ranked {
			out[i].Rank = i + 1
		}
	}
	return out
}

// formatMetric formats a leaderboard value as the report formats it.
func formatMetric(l *i18n.Localizer, metric string, v float64) string {
	switch metric {
	case store.MetricTTFT:
		return report.FormatTTFT(l, &v)
	case store.MetricTPJ:
		return report.FormatTPJ(l, &v)
	}
	return report.FormatTPS(l, &v)
}

// bestValue is the best of rows' values under metric: the highest, or
// the lowest for time to first token; 0 when none is positive.
func bestValue(metric string, rows []store.LeaderRow) float64 {
	best := 0.0
	for _, r := range rows {
		if r.Value > 0 && (best == 0 || (metric == store.MetricTTFT) == (r.Value < best)) {
			best = r.Value
		}
	}
	return best
}

// barPercent is v's bar against the best: v ÷ best, or best ÷ v where
// lower is better, in whole percent from 1 (a bar too short to see still
// shows) to 100.
func barPercent(metric string, v, best float64) int {
	if v <= 0 || best <= 0 {
		return 0
	}
	share := v / best
	if metric == store.MetricTTFT {
		share = best / v
	}
	return max(1, min(100, int(math.Round(share*100))))
}

func pointSelect(name, label string, values []int, current int, format func(int) string) Select {
	if !slices.Contains(values, current) {
		values = append(slices.Clone(values), current)
		slices.Sort(values)
	}
	sel := Select{Name: name, Label: label}
	for _, v := range values {
		sel.Options = append(sel.Options, Option{Value: strconv.Itoa(v), Label: format(v), Selected: v == current})
	}
	return sel
}

func metricSelect(l *i18n.Localizer, current string) Select {
	sel := Select{Name: "metric", Label: l.T("leaderboard.metric", nil)}
	for _, m := range store.Metrics {
		sel.Options = append(sel.Options, Option{Value: m, Label: l.T("metric."+m, nil), Selected: m == current})
	}
	return sel
}

// AnyClaimed reports whether a row shows a claimed name: the table then
// shows the legend of the claimed mark.
func AnyClaimed(rows []LeaderRow) bool {
	return slices.ContainsFunc(rows, func(r LeaderRow) bool { return r.Claimed })
}
