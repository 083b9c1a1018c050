package web

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
)

// The grid points a leaderboard offers; a point in the URL but not here is
// offered too.
var (
	leaderContexts      = []int{0, 8192, 16384, 32768, 65536, 131072}
	leaderConcurrencies = []int{1, 2, 4, 8, 16, 32, 64, 128}
)

// leaderboardSize is how many groups a leaderboard ranks.
const leaderboardSize = 100

// formatMetric formats a leaderboard value as the report formats it.
func formatMetric(l *i18n.Localizer, metric string, v float64) string {
	if metric == store.MetricTTFT {
		return report.FormatTTFT(l, &v)
	}
	return report.FormatTPS(l, &v)
}

// leaderRows turns ranked best cells into rows; rank 0 means unranked
// (queued cells).
func leaderRows(l *i18n.Localizer, rows []store.LeaderRow, q store.LeaderQuery, ranked bool) []templates.LeaderRow {
	out := make([]templates.LeaderRow, len(rows))
	for i, r := range rows {
		out[i] = templates.LeaderRow{
			RunID:        r.RunID,
			Href:         paths.RunCell(r.RunID, q.Context, q.Concurrency),
			Model:        link(r.ModelSlug, r.ModelName, paths.Model),
			Hardware:     link(r.HardwareSlug, r.HardwareName, paths.Hardware),
			Engine:       link(r.EngineSlug, r.EngineName, paths.Engine),
			Submitter:    link(r.SubmitterSlug, r.Submitter, paths.Submitter),
			Quantization: r.Quantization, EngineVersion: r.EngineVersion,
			Value: formatMetric(l, q.Metric, r.Value), Demo: r.Demo,
		}
		if ranked {
			out[i].Rank = i + 1
		}
	}
	return out
}

// intParam reads a non-negative integer parameter, def when absent.
func intParam(v string, def, min int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > 1<<24 {
		return 0, errBadRequest
	}
	return n, nil
}

// leaderboardPage is GET /leaderboard: the best cell of each (model,
// hardware, engine, quantization) group at the chosen grid point, by the
// chosen metric. Only valid cells rank; queued ones are listed apart when
// asked (queued=1); failed and over-capacity cells never show.
func (s *Server) leaderboardPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	qv := r.URL.Query()
	f, err := readFilter(qv)
	if err != nil {
		return err
	}
	q := store.LeaderQuery{Metric: qv.Get("metric"), Filter: f, Limit: leaderboardSize}
	if q.Metric == "" {
		q.Metric = store.MetricTotal
	}
	if !slices.Contains(store.Metrics, q.Metric) {
		return errBadRequest
	}
	if q.Context, err = intParam(qv.Get("ctx"), 0, 0); err != nil {
		return err
	}
	if q.Concurrency, err = intParam(qv.Get("conc"), 1, 1); err != nil {
		return err
	}
	showQueued := qv.Get("queued") == "1"
	rows, err := s.store.Leaderboard(ctx, q)
	if err != nil {
		return err
	}
	p := templates.LeaderboardPage{Rows: leaderRows(l, rows, q, true), ShowQueued: showQueued}
	if showQueued {
		qq := q
		qq.Queued = true
		queued, err := s.store.Leaderboard(ctx, qq)
		if err != nil {
			return err
		}
		p.Queued = leaderRows(l, queued, q, false)
	}
	if p.Form, err = s.filterForm(ctx, l, "/leaderboard", f); err != nil {
		return err
	}
	p.Form.Queued = &showQueued
	p.Form.Selects = append([]templates.Select{
		pointSelect("ctx", l.T("leaderboard.context", nil), leaderContexts, q.Context, report.ContextLabel),
		pointSelect("conc", l.T("leaderboard.concurrency", nil), leaderConcurrencies, q.Concurrency, strconv.Itoa),
		metricSelect(l, q.Metric),
	}, p.Form.Selects...)
	metric := l.T("metric."+q.Metric, nil)
	p.Heading = l.T("leaderboard.heading", map[string]any{"Context": report.ContextLabel(q.Context),
		"Concurrency": l.Int(int64(q.Concurrency)), "Metric": metric})
	w.Header().Set("Cache-Control", "no-cache")
	return render(w, r, http.StatusOK, templates.Leaderboard(s.base(r, l.T("leaderboard.title", nil), p.Heading), p))
}

func pointSelect(name, label string, values []int, current int, format func(int) string) templates.Select {
	if !slices.Contains(values, current) {
		values = append(slices.Clone(values), current)
		slices.Sort(values)
	}
	sel := templates.Select{Name: name, Label: label}
	for _, v := range values {
		sel.Options = append(sel.Options, templates.Option{Value: strconv.Itoa(v), Label: format(v), Selected: v == current})
	}
	return sel
}

func metricSelect(l *i18n.Localizer, current string) templates.Select {
	sel := templates.Select{Name: "metric", Label: l.T("leaderboard.metric", nil)}
	for _, m := range store.Metrics {
		sel.Options = append(sel.Options, templates.Option{Value: m, Label: l.T("metric."+m, nil), Selected: m == current})
	}
	return sel
}
