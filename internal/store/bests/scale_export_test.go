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
