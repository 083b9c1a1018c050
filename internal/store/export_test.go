package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Hooks for the external tests (package store_test, which must be external
// because dbtest imports store).

// RunIDs exposes runIDs.
var RunIDs = runIDs

// Transact exposes db.DB.Transact.
func Transact(ctx context.Context, s *Store, fn func(pgx.Tx) error) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, fn)
}

// RebuildAllBest recomputes best_cells and browse_groups from every run, as
// the backfill does: what the kept-current index must equal.
func RebuildAllBest(ctx context.Context, s *Store) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := lockBest(ctx, tx); err != nil {
			return err
		}
		return rebuildAllBest(ctx, tx)
	})
}

// InsertRunHeld stores r under dedupe key key in one transaction, as an
// upload does (its row, its cells, then queueIndexRun's statements), and
// calls held before the commit, with every lock the upload takes still
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
		if err := indexRun(ctx, tx, id, r, uploaded); err != nil {
			return err
		}
		held()
		return nil
	})
}

// RunIndexSQL is the browse index's statements that file one uploaded run,
// with a literal list of parameters for each that EXECUTE accepts.
func RunIndexSQL() map[string]string {
	// A run's offers, none marked (every offer probes).
	offer := `'{0}', '{1}', '{total_tps}', '{valid}', '{-1}', '{1}', 'm', 'b', 'h', 'e', 'q', true, 'a', '2026-12-01'`
	marks := `, '{false}', 0`
	return map[string]string{
		groupBests.offerRun:     offer + marks,
		versionBests.offerRun:   offer + `, 'v'` + marks,
		submitterBests.offerRun: offer + `, 's'` + marks,
		countRunGroupsSQL:       `'a'`,
		countRunVersionsSQL:     `'a'`,
		countRunDeltasSQL:       `'a', 1`,
		offerRunHistorySQL:      `'a', '{a}', '{0}', '{1}', '{2.5}'`,
	}
}

// FoldCountsSQL is the statement that folds the run counts' deltas.
var FoldCountsSQL = foldCountsSQL

// CountSQL is the statements that read the counts kept per identity, each
// with a parameter and the table of counts it is to read.
var CountSQL = []struct{ SQL, Arg, Table string }{
	{countIdentitiesSQL, KindHardware, "identity_runs"},
	{engineVersionsSQL, "vllm", "engine_version_runs"},
}

// BackupLeftOut exposes backupLeftOut.
var BackupLeftOut = backupLeftOut

// ScaleSQL is the statements migration 0014 gave an index of their own,
// each with (the start of) the name of the index it is to read through
// and parameters for EXECUTE.
var ScaleSQL = []struct{ SQL, Index, Params string }{
	{sitemapRunsSQL, "runs_sitemap_idx", "50000"},
	{rebuildHistoryOfSQL[1], "runs_setup_", "'a'"},
	{rebuildHistoryOfSQL[3], "runs_setup_", "'a'"},
}

// LiveLeaderboard is Leaderboard ranked from the runs' own cells whatever
// the filter: what a board read from a table of bests must equal.
func (s *Store) LiveLeaderboard(ctx context.Context, lq LeaderQuery) ([]LeaderRow, error) {
	return s.leaderboard(ctx, lq, true)
}
