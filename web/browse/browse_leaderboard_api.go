package browse

import (
	"context"
	"net/http"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// apiLeaderboard is the answer of GET /api/v1/leaderboard: the board the
// page shows, as data.
type apiLeaderboard struct {
	Context     int    `json:"context"`
	Concurrency int    `json:"concurrency"`
	Metric      string `json:"metric"`
	// Rows are the groups' best valid cells, best first; Queued the best
	// queued ones, unranked, when queued=1 asks for them.
	Rows   []apiLeaderRow `json:"rows"`
	Queued []apiLeaderRow `json:"queued,omitempty"`
	// UnpoweredRuns is how many runs a tokens_per_joule board leaves out
	// for want of a measured board power; null under another metric.
	UnpoweredRuns *int `json:"unpowered_runs"`
}

// apiLeaderRow is one group's best cell and the run it is of.
type apiLeaderRow struct {
	Rank       int              `json:"rank,omitempty"`
	RunID      string           `json:"run_id"`
	URL        string           `json:"url"`
	Value      float64          `json:"value"`
	UploadedAt string           `json:"uploaded_at"`
	Demo       bool             `json:"demo,omitempty"`
	Hardware   catalog.Identity `json:"hardware"`
	Engine     apiEngine        `json:"engine"`
	Model      catalog.Identity `json:"model"`
	Submitter  *apiSubmitter    `json:"submitter"`
	Flags      []string         `json:"flags"`
}

// LeaderboardJSON is GET /api/v1/leaderboard: the board of /leaderboard
// as JSON, with its parameters (ctx, conc, metric, the filters, flagged,
// queued). A value it cannot read is a 422 naming the parameter. Answered
// fresh, as the run list is: the page cache keeps pages, not the API.
func (s *Handlers) LeaderboardJSON(w http.ResponseWriter, r *http.Request) error {
	qv := r.URL.Query()
	b, err := s.readBoard(r.Context(), qv)
	if name, ok := paramOf(err); ok {
		return problem.New(problem.Invalid, name, "problem.query_param", map[string]any{"Name": name, "Value": qv.Get(name)})
	}
	if err != nil {
		return err
	}
	orgs, err := s.boardOrgs(r.Context(), b)
	if err != nil {
		return err
	}
	q := b.Query
	out := apiLeaderboard{Context: q.Context, Concurrency: q.Concurrency, Metric: q.Metric,
		Rows: s.apiLeaderRows(r, b, b.Rows, orgs, true)}
	if b.ShowQueued {
		out.Queued = s.apiLeaderRows(r, b, b.Queued, orgs, false)
	}
	if q.Metric == store.MetricTPJ {
		out.UnpoweredRuns = &b.Unpowered
	}
	w.Header().Set("Cache-Control", "no-cache")
	return kit.WriteJSON(w, http.StatusOK, out)
}

// boardOrgs are the organisations the runs of b's rows were uploaded for,
// by run id. The tables of bests keep what the page shows, which an
// organisation is not, so the API reads them from the runs: one query by
// primary key for the (at most a hundred) rows shown, and none when no row
// has a verified submitter (only those upload for an organisation).
func (s *Handlers) boardOrgs(ctx context.Context, b browse.Board) (map[string]run.Org, error) {
	var ids []string
	for _, rows := range [][]store.LeaderRow{b.Rows, b.Queued} {
		for _, row := range rows {
			if row.SubmitterSlug != "" {
				ids = append(ids, row.RunID)
			}
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return s.store.RunOrgs(ctx, ids)
}

// apiLeaderRows are rows of b as the API gives them, numbered from 1 when
// ranked; orgs are their runs' organisations (boardOrgs).
func (s *Handlers) apiLeaderRows(r *http.Request, b browse.Board, rows []store.LeaderRow, orgs map[string]run.Org, ranked bool) []apiLeaderRow {
	origin := s.Origin(r)
	out := make([]apiLeaderRow, 0, len(rows))
	for i, row := range rows {
		// Only a verified name has a slug (the page's rule, LeaderRows).
		sub := export.NewSubmitter(row.Submitter, row.SubmitterSlug != "", orgs[row.RunID])
		it := apiLeaderRow{RunID: row.RunID, URL: origin + paths.RunCell(row.RunID, b.Query.Context, b.Query.Concurrency),
			Value: row.Value, UploadedAt: row.UploadedAt.UTC().Format(time.RFC3339Nano), Demo: row.Demo,
			Hardware: catalog.Identity{Slug: row.HardwareSlug, Name: row.HardwareName},
			Engine: apiEngine{Identity: catalog.Identity{Slug: row.EngineSlug, Name: row.EngineName},
				Version: row.EngineVersion, Quantization: row.Quantization},
			Model:     catalog.Identity{Slug: row.ModelSlug, Name: row.ModelName},
			Submitter: &sub, Flags: append([]string{}, row.Flags...)}
		if ranked {
			it.Rank = i + 1
		}
		out = append(out, it)
	}
	return out
}
