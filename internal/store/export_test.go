package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
)

// Hooks for the external tests (package store_test, which must be external
// because dbtest imports store).

// RunIDs exposes runIDs.
var RunIDs = runIDs

// Transact exposes db.DB.Transact.
func Transact(ctx context.Context, s *Store, fn func(pgx.Tx) error) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, fn)
}

// RebuildAllBest recomputes the browse index from every run, as the
// backfill does: what the kept-current index must equal.
func RebuildAllBest(ctx context.Context, s *Store) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil {
			return err
		}
		return bests.RebuildAll(ctx, tx)
	})
}

// InsertRunHeld stores r under dedupe key key in one transaction, as an
// upload does (its row, its cells, then bests.QueueIndexRun's statements),
// and calls held before the commit, with every lock the upload takes still
// held. It returns the run's id.
func InsertRunHeld(ctx context.Context, s *Store, r *run.Run, key string, held func()) (id string, err error) {
	id, _ = runIDs(key)
	uploaded := r.UploadedAt.UTC().Truncate(time.Microsecond)
	return id, s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		sql, args := insertRun(id, key, uploaded, r)
		if _, err := tx.Exec(ctx, sql, args...); err != nil {
			return err
		}
		if err := copyDecodeCells(ctx, tx, id, r.Decode); err != nil {
			return err
		}
		if err := bests.IndexRun(ctx, tx, id, r, uploaded); err != nil {
			return err
		}
		held()
		return nil
	})
}

// BackupLeftOut exposes backupLeftOut.
var BackupLeftOut = backupLeftOut

// ScaleSQL is the runs' statements given an index of their own
// (package bests has the browse index's), with a part of the plan each
// must show: the sitemap's (migration 0014), and the planner's, whose
// answers read one range of plan_ladders' key (migration 0037) and whose
// rows probe the keys of runs and cells.
var ScaleSQL = []struct{ SQL, Index, Params string }{
	{sitemapRunsSQL, "runs_sitemap_idx", "50000"},
	{planSetupsSQL, "Index Scan using plan_ladders_pkey", "'rtx-3060-12gb', 16384"},
	{planRunsSQL, "decode_cells_pkey", "ARRAY['r1'], ARRAY[0], ARRAY[1]"},
	{planRunsSQL, "runs_pkey", "ARRAY['r1'], ARRAY[0], ARRAY[1]"},
}

// QueryRow runs a read on s's public reads, for benchmarks that pick
// what to ask from the data.
func QueryRow(ctx context.Context, s *Store, sql string, args ...any) pgx.Row {
	return s.db.Public().QueryRow(ctx, sql, args...)
}
