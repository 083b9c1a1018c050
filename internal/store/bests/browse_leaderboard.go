package bests

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Leaderboard metrics: the column of decode_cells a leaderboard ranks by.
const (
	MetricTotal      = "total_tps"
	MetricPerRequest = "per_request_tps"
	MetricTTFT       = "ttft_ms" // lower is better
	// MetricTPJ is tokens per joule: total tok/s ÷ the cell's average GPU
	// board power (tpjSQL); cells without a measured power do not rank.
	MetricTPJ = "tokens_per_joule"
)

// Metrics lists the leaderboard metrics in the order forms offer them.
var Metrics = []string{MetricTotal, MetricPerRequest, MetricTTFT, MetricTPJ}

// tpjSQL is a decode cell c's tokens per joule in SQL, run.TokensPerJoule's
// rule: NULL unless its average board power is positive (a total tok/s
// that is not is left out by the rankings' positive-value rule).
const tpjSQL = `CASE WHEN (c.telemetry->>'power_w')::float8 > 0 THEN c.total_tps / (c.telemetry->>'power_w')::float8 END`

// metricValues lists a decode cell c's metrics, as the rows (metric, v) of
// m: what the tables of bests and the live boards rank.
const metricValues = `CROSS JOIN LATERAL (VALUES ('total_tps', c.total_tps), ('per_request_tps', c.per_request_tps),
    ('ttft_ms', c.ttft_ms), ('tokens_per_joule', ` + tpjSQL + `)) AS m (metric, v)`

// LeaderQuery asks for one grid point's ranking.
type LeaderQuery struct {
	Context, Concurrency int
	Metric               string
	// Queued asks for the best queued cells instead of the valid ones:
	// shown apart, flagged, never ranked with the valid.
	Queued bool
	Filter RunFilter
	Limit  int
	// IncludeFlagged ranks runs above the physical bound too; the tables
	// of bests leave them out, so such a board adds the flagged runs' own
	// cells (bestsWithFlagged).
	IncludeFlagged bool
}

// LeaderRow is the best cell of one group (model variant, hardware, engine,
// quantization; demo runs form groups of their own), scanned from
// leaderColumns (dest).
type LeaderRow struct {
	RunID            string
	Value            float64
	UploadedAt       time.Time
	Demo             bool
	ModelSlug        string
	ModelName        string
	HardwareSlug     string
	HardwareName     string
	EngineSlug       string
	EngineName       string
	QuantizationSlug string
	Quantization     string
	EngineVersion    string
	Submitter        string
	SubmitterSlug    string
	// Flags are the run's stored plausibility flags: a board that
	// includes flagged runs shows which.
	Flags []string
}

// leaderColumns names a best cell b, with what it shows of its run
// (bestShownColumns, and its flags), with its identities' names, read
// from leaderJoins.
const leaderColumns = `b.run_id, b.value, b.uploaded_at, b.demo,
    b.model_slug, coalesce(im.name, b.model_slug) AS model_name,
    b.hardware_slug, coalesce(ih.name, b.hardware_slug) AS hardware_name,
    b.engine_slug, coalesce(ie.name, b.engine_slug) AS engine_name,
    b.quantization_slug, coalesce(iq.name, '') AS quantization_name,
    b.engine_version, b.submitter, b.submitter_slug, b.flags`

// storedRows is the select list of a table of bests b's rows for
// leaderColumns: none of its runs is flagged (bestCellsSelect, eachOffer;
// a change of a run's flags rebuilds its group).
const storedRows = `b.*, '{}'::text[] AS flags`

// leaderJoins joins a best cell b to its four identities'
// names for leaderColumns. Joins, not a subquery per name: the planner
// hashes the small identities table once, where four correlated
// subqueries scanned it four times per row (a model's board of 62 rows
// spent 5 of its 7.7 ms there). Each identity join matches at most one row
// (the key is kind and slug), so the rows are b's.
const leaderJoins = `
LEFT JOIN identities im ON im.kind = 'model' AND im.slug = b.model_slug
LEFT JOIN identities ih ON ih.kind = 'hardware' AND ih.slug = b.hardware_slug
LEFT JOIN identities ie ON ie.kind = 'engine' AND ie.slug = b.engine_slug
LEFT JOIN identities iq ON iq.kind = 'quantization' AND iq.slug = b.quantization_slug`

// leaderOrder is the leaderboard's order of best cells b: better value
// first, ties to the earlier upload, then the smaller run id.
const leaderOrder = `b.sort_value, b.uploaded_at, b.run_id`

// Leaderboard ranks the groups' best cells at one grid point: better value
// first (higher tok/s, lower TTFT), ties to the earlier upload, then to the
// smaller run id. Filters on the group's identities read the precomputed
// best_cells, a filter on the engine version version_best_cells, and one
// on the submitter submitter_best_cells (with the few runs above the
// physical bound added when they are included); a filter on both the
// version and the submitter (which a group's runs do not share) ranks from
// the matching runs' own cells instead (RunFilter.bests).
func (s *Bests) Leaderboard(ctx context.Context, lq LeaderQuery) (_ []LeaderRow, err error) {
	defer db.Wrap(&err, "Leaderboard(%+v)", lq)
	return s.leaderboard(ctx, lq, false)
}

// leaderboard is Leaderboard, ranked from the runs' own cells whatever the
// filter when live is set: what the tables of bests must equal.
func (s *Bests) leaderboard(ctx context.Context, lq LeaderQuery, live bool) (_ []LeaderRow, err error) {
	var q query
	from, rowsOf, err := s.boardFrom(ctx, &q, lq, live)
	if err != nil {
		return nil, err
	}
	q.args = append(q.args, lq.Limit)
	// The rows first, their names after: only the shown rows are joined.
	sql := fmt.Sprintf(`SELECT %s FROM (SELECT %s FROM %s%s ORDER BY %s LIMIT $%d) AS b%s
ORDER BY %s`, leaderColumns, rowsOf, from, q.sql(), leaderOrder, len(q.args), leaderJoins, leaderOrder)
	rows, _ := s.db.Public().Query(ctx, sql, q.args...)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (LeaderRow, error) {
		var l LeaderRow
		err := row.Scan(l.dest()...)
		l.UploadedAt = l.UploadedAt.UTC()
		return l, err
	})
}

// boardFrom is the best cells b of lq's board, one per group, with their
// conditions and arguments in q: a table of bests where the filter has
// one, else (or when live is set) the runs' own cells. rows is the select
// list of b's rows that leaderColumns reads.
func (s *Bests) boardFrom(ctx context.Context, q *query, lq LeaderQuery, live bool) (from, rows string, err error) {
	if !validMetric(lq.Metric) {
		return "", "", fmt.Errorf("unknown metric %q", lq.Metric)
	}
	t, stored := lq.Filter.bests()
	switch {
	case live || !stored:
		from, err = s.liveBests(ctx, q, lq, "")
		return from, "b.*", err
	case lq.IncludeFlagged:
		from, err = s.bestsWithFlagged(ctx, q, lq, t)
		return from, "b.*", err
	}
	return t.name + " b", storedRows, s.storedBests(ctx, q, lq)
}

// dest is where a row of leaderColumns scans into, in their order. By
// position, not by name: matching the columns' names to the fields by
// reflection on every row was a tenth of a leaderboard miss's CPU.
func (l *LeaderRow) dest() []any {
	return []any{&l.RunID, &l.Value, &l.UploadedAt, &l.Demo,
		&l.ModelSlug, &l.ModelName, &l.HardwareSlug, &l.HardwareName, &l.EngineSlug, &l.EngineName,
		&l.QuantizationSlug, &l.Quantization, &l.EngineVersion, &l.Submitter, &l.SubmitterSlug, &l.Flags}
}

// leaderStatus is the cell status a board ranks.
func leaderStatus(lq LeaderQuery) string {
	if lq.Queued {
		return "queued"
	}
	return "valid"
}

// storedBests adds to q the conditions on the table of bests b of lq's
// board.
func (s *Bests) storedBests(ctx context.Context, q *query, lq LeaderQuery) error {
	q.add("b.context = ?", lq.Context)
	q.add("b.concurrency = ?", lq.Concurrency)
	q.add("b.metric = ?", lq.Metric)
	q.add("b.status = ?", leaderStatus(lq))
	return s.filter(ctx, q, lq.Filter, "b", false)
}

// liveBests is lq's best cells per group ranked from the runs' own cells
// (those of runs matching more, when more is not empty), as a subquery b
// in best_cells' columns; its arguments go to q. It reads every matching
// run's cell at the point, by the run (liveCellsFrom).
func (s *Bests) liveBests(ctx context.Context, q *query, lq LeaderQuery, more string) (string, error) {
	var live query
	live.args = q.args // numbered after what q holds
	live.add("c.context = ?", lq.Context)
	live.add("c.concurrency = ?", lq.Concurrency)
	live.add("c.status = ?", leaderStatus(lq))
	point := live.and()
	live.where = nil
	live.add("m.metric = ?", lq.Metric)
	if err := s.filter(ctx, &live, lq.Filter, "r", false); err != nil {
		return "", err
	}
	cells := bestCellsSelectList + `, r.engine_version, r.submitter, r.submitter_slug, r.flags` +
		liveCellsFrom(point) + bestCellsWhere
	if !lq.IncludeFlagged {
		cells += ` AND NOT r.above_bound`
	}
	if more != "" {
		live.where = append(live.where, more)
	}
	q.args = live.args
	return fixLiveColumns(`(SELECT DISTINCT ON (` + bestCellsKey + `) * FROM (` + cells + ` AND ` +
		live.and() + `) AS x ORDER BY ` + bestCellsKey + `, sort_value, uploaded_at, id) AS b`), nil
}

// liveCellsFrom is bestCellsFrom's FROM for a board at one point (point,
// conditions on decode_cells c): the matching runs first (a live board
// always filters them, by submitter or by the bound), then each one's
// cell at the point by decode_cells' primary key. OFFSET 0 keeps the
// subquery a probe per run: flattened into a join, it let the planner read
// decode_cells whole, and no index on the point is kept for it any more
// (migration 0020: each cost an upload 48 index entries).
func liveCellsFrom(point string) string {
	return `
FROM runs r
CROSS JOIN LATERAL (SELECT * FROM decode_cells c WHERE c.run_id = r.id AND ` + point + ` OFFSET 0) AS c
` + metricValues
}

// bestsWithFlagged is lq's board with the runs above the physical bound
// included, as a subquery b: table t holds each group's best of the
// other runs, so a group's best of all is the better of that and its
// flagged runs' best. Only the board's first lq.Limit stored bests can
// rank, besides groups with flagged runs: any other group has that many
// better groups already. A group whose flagged best is worse than a stored
// best beyond the first lq.Limit is worse than those too, so its flagged
// best never ranks either. Flagged runs are few (the partial index on runs
// finds them), where ranking every run's cell at the point read the whole
// table: 1.5 s at 30,000 runs. The conditions are the subquery's own, so q
// keeps only its arguments.
func (s *Bests) bestsWithFlagged(ctx context.Context, q *query, lq LeaderQuery, t bestTable) (string, error) {
	var stored query
	if err := s.storedBests(ctx, &stored, lq); err != nil {
		return "", err
	}
	storedSQL := fmt.Sprintf(`SELECT %s, %s, '{}'::text[] AS flags FROM %s b%s ORDER BY %s LIMIT $%d`,
		bestCellsColumnList, bestShownColumns, t.name, stored.sql(), leaderOrder, len(stored.args)+1)
	q.args = append(stored.args, lq.Limit)
	flagged, err := s.liveBests(ctx, q, lq, "r.above_bound")
	if err != nil {
		return "", err
	}
	return `(SELECT DISTINCT ON (` + bestCellsKey + `) * FROM (
    (` + storedSQL + `)
    UNION ALL SELECT ` + bestCellsColumnList + `, ` + bestShownColumns + `, flags FROM ` + flagged + `) AS u
ORDER BY ` + bestCellsKey + `, sort_value, uploaded_at, run_id) AS b`, nil
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
// (v → value, id → run_id) so one outer query reads either; its rows say
// how each of their runs is flagged.
func fixLiveColumns(from string) string {
	return "(SELECT context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug, " +
		"quantization_slug, demo, sort_value, v AS value, id AS run_id, uploaded_at, " + bestShownColumns +
		", flags FROM " + from + ") AS b"
}
