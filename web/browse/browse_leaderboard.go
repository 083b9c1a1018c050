package browse

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// leaderboardSize is how many groups a leaderboard ranks.
const leaderboardSize = 100

// intParam reads a non-negative integer parameter, def when absent.
func intParam(qv url.Values, name string, def, min int) (int, error) {
	v := qv.Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	// 007 and +7 are refused: they would be pages (and cache entries) of 7's.
	if err != nil || n < min || n > 1<<24 || strconv.Itoa(n) != v {
		return 0, badParam(name)
	}
	return n, nil
}

// readLeaderQuery reads a leaderboard's grid point, metric and filters
// from the URL: total tok/s at 0 × 1 unless asked otherwise.
func readLeaderQuery(qv url.Values) (store.LeaderQuery, error) {
	f, err := readFilter(qv)
	if err != nil {
		return store.LeaderQuery{}, err
	}
	q := store.LeaderQuery{Metric: qv.Get("metric"), Filter: f, Limit: leaderboardSize,
		IncludeFlagged: qv.Get("flagged") != ""}
	for _, toggle := range []string{"flagged", "queued"} {
		if v := qv.Get(toggle); v != "" && v != "1" { // the form's checkboxes send 1
			return q, badParam(toggle)
		}
	}
	if q.Metric == "" {
		q.Metric = store.MetricTotal
	}
	if !slices.Contains(store.Metrics, q.Metric) {
		return q, badParam("metric")
	}
	if q.Context, err = intParam(qv, "ctx", 0, 0); err != nil {
		return q, err
	}
	if q.Concurrency, err = intParam(qv, "conc", 1, 1); err != nil {
		return q, err
	}
	return q, nil
}

// readBoard reads a leaderboard's query from qv and answers it from the
// store: the ranked rows, how many runs a tokens-per-joule board leaves
// out for want of a power measurement, and the queued cells when asked
// (queued=1). The page and the API answer the same board.
func (s *Handlers) readBoard(ctx context.Context, qv url.Values) (b browse.Board, err error) {
	if b.Query, err = readLeaderQuery(qv); err != nil {
		return b, err
	}
	q := b.Query
	b.ShowQueued = qv.Get("queued") != ""
	if b.Rows, err = s.store.Leaderboard(ctx, q); err != nil {
		return b, err
	}
	if q.Metric == store.MetricTPJ {
		if b.Unpowered, err = s.store.Unpowered(ctx, q); err != nil {
			return b, err
		}
	}
	if b.ShowQueued {
		q.Queued = true
		if b.Queued, err = s.store.Leaderboard(ctx, q); err != nil {
			return b, err
		}
	}
	return b, nil
}

// LeaderboardPage is GET /leaderboard: the best cell of each (model,
// hardware, engine, quantization) group at the chosen grid point, by the
// chosen metric. Only valid cells rank; queued ones are listed apart when
// asked (queued=1); failed and over-capacity cells never show.
func (s *Handlers) LeaderboardPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	b, err := s.readBoard(ctx, r.URL.Query())
	if err != nil {
		return err
	}
	choices, err := s.filterChoices(ctx)
	if err != nil {
		return err
	}
	p := browse.NewLeaderboardPage(l, b, choices)
	kit.KeptIf(w, r, len(b.Rows) > 0 || len(b.Queued) > 0)
	return kit.Render(w, r, http.StatusOK, templates.Leaderboard(s.Base(r, l.T("leaderboard.title", nil), p.Heading), p))
}
