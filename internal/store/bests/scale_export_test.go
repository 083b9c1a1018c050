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
}

// GroupBestsSQL is, for each table of bests by name, the rows it stores for
// one group ($1–$5: model, hardware, engine, quantization, demo) and the
// rows its rule derives from the group's runs' cells from scratch, each row
// as text, in one order: what a write that touched the group must leave.
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
	return out
}
