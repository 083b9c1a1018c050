package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Leaderboard metrics: the column of decode_cells a leaderboard ranks by.
const (
	MetricTotal      = "total_tps"
	MetricPerRequest = "per_request_tps"
	MetricTTFT       = "ttft_ms" // lower is better
)

// Metrics lists the leaderboard metrics in the order forms offer them.
var Metrics = []string{MetricTotal, MetricPerRequest, MetricTTFT}

// LeaderQuery asks for one grid point's ranking.
type LeaderQuery struct {
	Context, Concurrency int
	Metric               string
	// Queued asks for the best queued cells instead of the valid ones:
	// shown apart, flagged, never ranked with the valid.
	Queued bool
	Filter RunFilter
	Limit  int
	// IncludeFlagged ranks runs above the physical bound too; best_cells
	// leaves them out, so such a board ranks from the runs' own cells.
	IncludeFlagged bool
}

// LeaderRow is the best cell of one group (model variant, hardware, engine,
// quantization; demo runs form groups of their own).
type LeaderRow struct {
	RunID            string    `db:"run_id"`
	Value            float64   `db:"value"`
	UploadedAt       time.Time `db:"uploaded_at"`
	Demo             bool      `db:"demo"`
	ModelSlug        string    `db:"model_slug"`
	ModelName        string    `db:"model_name"`
	HardwareSlug     string    `db:"hardware_slug"`
	HardwareName     string    `db:"hardware_name"`
	EngineSlug       string    `db:"engine_slug"`
	EngineName       string    `db:"engine_name"`
	QuantizationSlug string    `db:"quantization_slug"`
	Quantization     string    `db:"quantization_name"`
	EngineVersion    string    `db:"engine_version"`
	Submitter        string    `db:"submitter"`
	SubmitterSlug    string    `db:"submitter_slug"`
	AboveBound       bool      `db:"above_bound"`
}

// leaderColumns names a best cell b of run r with its identities' names.
const leaderColumns = `b.run_id, b.value, b.uploaded_at, b.demo,
    b.model_slug, coalesce((SELECT name FROM identities WHERE kind = 'model' AND slug = b.model_slug), b.model_slug) AS model_name,
    b.hardware_slug, coalesce((SELECT name FROM identities WHERE kind = 'hardware' AND slug = b.hardware_slug), b.hardware_slug) AS hardware_name,
    b.engine_slug, coalesce((SELECT name FROM identities WHERE kind = 'engine' AND slug = b.engine_slug), b.engine_slug) AS engine_name,
    b.quantization_slug, coalesce((SELECT name FROM identities WHERE kind = 'quantization' AND slug = b.quantization_slug), '') AS quantization_name,
    r.engine_version, r.submitter, r.submitter_slug, r.above_bound`

// Leaderboard ranks the groups' best cells at one grid point: better value
// first (higher tok/s, lower TTFT), ties to the earlier upload, then to the
// smaller run id. Filters on the group's identities read the precomputed
// best_cells; a filter on submitter or engine version (which a group's runs
// do not share) ranks from the matching runs' own cells instead.
func (s *Store) Leaderboard(ctx context.Context, lq LeaderQuery) (_ []LeaderRow, err error) {
	defer wrap(&err, "Leaderboard(%+v)", lq)
	if !validMetric(lq.Metric) {
		return nil, fmt.Errorf("unknown metric %q", lq.Metric)
	}
	status := "valid"
	if lq.Queued {
		status = "queued"
	}
	var q query
	var from string
	if lq.Filter.grouped() && !lq.IncludeFlagged {
		from = "best_cells b"
		q.add("b.context = ?", lq.Context)
		q.add("b.concurrency = ?", lq.Concurrency)
		q.add("b.metric = ?", lq.Metric)
		q.add("b.status = ?", status)
		if err := s.filter(ctx, &q, lq.Filter, "b", false); err != nil {
			return nil, err
		}
	} else {
		var live query
		live.add("c.context = ?", lq.Context)
		live.add("c.concurrency = ?", lq.Concurrency)
		live.add("m.metric = ?", lq.Metric)
		live.add("c.status = ?", status)
		if err := s.filter(ctx, &live, lq.Filter, "r", false); err != nil {
			return nil, err
		}
		cells := bestCellsSelect
		if lq.IncludeFlagged {
			cells = bestCellsSelectAll
		}
		from = fixLiveColumns(`(SELECT DISTINCT ON (` + bestCellsKey + `) * FROM (` + cells + ` AND ` +
			live.and() + `) AS x ORDER BY ` + bestCellsKey + `, sort_value, uploaded_at, id) AS b`)
		q.args = live.args
	}
	q.args = append(q.args, lq.Limit)
	sql := fmt.Sprintf(`SELECT %s FROM %s JOIN runs r ON r.id = b.run_id%s
ORDER BY b.sort_value, b.uploaded_at, b.run_id LIMIT $%d`, leaderColumns, from, q.sql(), len(q.args))
	rows, _ := s.public().Query(ctx, sql, q.args...)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByName[LeaderRow])
	for i := range list {
		list[i].UploadedAt = list[i].UploadedAt.UTC()
	}
	return list, err
}

func validMetric(m string) bool {
	for _, v := range Metrics {
		if v == m {
			return true
		}
	}
	return false
}

// fixLiveColumns renames the live subquery's columns to best_cells' names
// (v → value, id → run_id) so one outer query reads either.
func fixLiveColumns(from string) string {
	return "(SELECT context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug, " +
		"quantization_slug, demo, sort_value, v AS value, id AS run_id, uploaded_at FROM " + from + ") AS b"
}
