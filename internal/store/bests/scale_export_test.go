package bests

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// OpenTraced is the browse index on the database at url with a query
// tracer on every connection: the scale benchmark records the SQL a page
// runs to EXPLAIN it. Close closes it.
func OpenTraced(ctx context.Context, url string, tracer pgx.QueryTracer) (*Bests, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.Tracer = tracer
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return New(db.New(pool)), nil
}

// Close closes what OpenTraced opened.
func (s *Bests) Close() { s.db.Close() }

// ScaleSQL is the browse index's statements migration 0014 gave an index
// of their own, each with (the start of) the name of the index it is to
// read through and parameters for EXECUTE.
var ScaleSQL = []struct{ SQL, Index, Params string }{
	{rebuildHistoryOfSQL[1], "runs_setup_", "'a'"},
	{rebuildHistoryOfSQL[3], "runs_setup_", "'a'"},
	// A tokens-per-joule board's count of runs without power reads its
	// point's rows (migration 0034), and a rebuild its group's.
	{unpoweredCountSQL + ` WHERE b.context = $1 AND b.concurrency = $2`, "unpowered_runs_point_idx", "0, 1"},
	{deleteGroupUnpowered, "unpowered_runs_pkey", "'a'"},
}

// GroupBestsSQL is, for each table of bests by name (and the kept count of
// runs a tokens-per-joule board leaves out, and the planner's ladder), the
// rows it stores for one group ($1–$5: model, hardware, engine,
// quantization, demo) and the rows its rule derives from the group's runs'
// cells from scratch (the ladder: from the group's bests), each row as
// text, in one order: what a write that touched the group must leave.
func GroupBestsSQL() map[string][2]string {
	const group = ` (model_slug, hardware_slug, engine_slug, quantization_slug, demo) = ($1, $2, $3, $4, $5)`
	out := map[string][2]string{}
	for _, t := range bestTables {
		stored := `SELECT x::text FROM (SELECT ` + bestCellsColumnList + `, ` + bestShownColumns + ` FROM ` + t.name +
			` WHERE` + group + `) AS x ORDER BY 1`
		derived := `SELECT x::text FROM (SELECT DISTINCT ON (` + t.key() + `) * FROM (` + t.cellsSelect() +
			` AND (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo) = ($1, $2, $3, $4, $5)) AS y
ORDER BY ` + t.key() + `, sort_value, uploaded_at, id) AS x ORDER BY 1`
		out[t.name] = [2]string{stored, derived}
	}
	// The runs a tokens-per-joule board leaves out: the kept counts (rows
	// and the deltas not yet folded into them) and a count from the runs.
	const key = `model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug`
	out["unpowered_runs"] = [2]string{
		`SELECT x::text FROM (SELECT ` + key + `, min(model_base_slug), sum(runs)::bigint FROM (
    SELECT * FROM unpowered_runs WHERE` + group + `
    UNION ALL SELECT * FROM unpowered_run_deltas WHERE` + group + `) AS u
GROUP BY ` + key + ` HAVING sum(runs) <> 0) AS x ORDER BY 1`,
		`SELECT x::text FROM (` + unpoweredRowsOf +
			` AND (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo) = ($1, $2, $3, $4, $5)` +
			unpoweredRowsEnd + `) AS x ORDER BY 1`,
	}
	// The planner's ladder of the group, kept by best_cells' triggers,
	// and as its rule derives it now from the group's bests.
	out["plan_ladders"] = [2]string{
		`SELECT x::text FROM (SELECT * FROM plan_ladders WHERE` + group + `) AS x ORDER BY 1`,
		`SELECT x::text FROM plan_ladder_rows(ARRAY[$2], ARRAY[$1], ARRAY[$3], ARRAY[$4], ARRAY[$5::boolean]) AS x ORDER BY 1`,
	}
	return out
}
