package bests

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// bestLock is the advisory lock that keeps rebuilds of best cells apart
// from offers. Uploads hold it shared while they offer cells and count
// groups (QueueIndexRun, FreshIndex); a transaction that rebuilds a group's best cells
// from its runs (hide, delete, deriving again, the backfill) holds it
// exclusively, taken before any other lock of the index (LockBest).
//
// A rebuild deletes rows and inserts others, so it cannot take its row locks
// in the uploads' sorted order; without bestLock it deadlocked with them.
// And an upload leaves out offers no better than the stored best, which
// holds only while no rebuild can make a best worse under it.
const bestLock = 0x5e3d_b0c5

// LockBest takes bestLock exclusively: call it first in a transaction that
// rebuilds best cells, before it locks any row of runs, best_cells or
// browse_groups (the lock order: the package comment). Rebuilds are rare
// (a run hidden, deleted or derived again), so uploads wait for one a few
// milliseconds at most.
//
// It bumps best_epoch in the same transaction: whoever holds bestLock
// exclusively may make a best worse, so every handle's bounds on the bests
// (bestBounds) stop holding when this commits, and the uploads' offer
// statements check the epoch before they leave an offer out. The bump is
// here rather than at each caller so that no path that takes the lock can
// forget it; the row lock it takes waits only for another holder of
// bestLock, which this already waited for.
func LockBest(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, bestLock); err != nil {
		return fmt.Errorf("lock best cells: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE best_epoch SET epoch = epoch + 1`); err != nil {
		return fmt.Errorf("best epoch: %w", err)
	}
	return nil
}

// ReindexRun recomputes a stored run's numbers and its group's best cells
// after its cells were replaced (new status rules): the run may have lost
// a best it held, so the group is rebuilt from its runs' cells. Its slugs
// and their names stay as stored: its facts did not change, and store.Migrate
// brought every run to the current catalog before anything derives again.
// The caller holds LockBest.
func ReindexRun(ctx context.Context, tx pgx.Tx, id string) error {
	if _, err := tx.Exec(ctx, `UPDATE runs r SET`+runNumbersSet+` WHERE r.id = $1`, id); err != nil {
		return fmt.Errorf("run numbers: %w", err)
	}
	return RebuildGroup(ctx, tx, id)
}

// RebuildGroup recomputes the bests of every table of bests (bestTables)
// for the group of run id from every run of that group, and the run's
// history rows (rebuildHistoryOf): after a run's cells change, or a run
// leaves the lists. In version_best_cells every version of the group is
// rebuilt, not only the run's, and in submitter_best_cells every
// submitter: one range of its key either way.
// The caller holds LockBest.
func RebuildGroup(ctx context.Context, tx pgx.Tx, id string) error {
	if err := rebuildGroupBests(ctx, tx, id, bestTables...); err != nil {
		return err
	}
	if err := rebuildUnpowered(ctx, tx, id); err != nil {
		return err
	}
	return rebuildHistoryOf(ctx, tx, id)
}

// rebuildGroupBests recomputes the bests of tables for the group of run
// id from every run of that group, in one round trip. The caller holds
// LockBest.
func rebuildGroupBests(ctx context.Context, tx pgx.Tx, id string, tables ...bestTable) error {
	const (
		groupOf = `(SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo FROM runs WHERE id = $1)`
		group   = `(model_slug, hardware_slug, engine_slug, quantization_slug, demo) = ` + groupOf
		runs    = `(r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo) = ` + groupOf
	)
	b := &pgx.Batch{}
	for _, t := range tables {
		b.Queue(`DELETE FROM `+t.name+` WHERE `+group, id)
		b.Queue(t.rebuildSQL(runs), id)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("rebuild group: %w", err)
	}
	return nil
}

// renewShownSQL and renewVersionShownSQL copy a claimed run's submitter
// into the bests it holds in best_cells and version_best_cells
// (bestShownColumns), found by the run (best_cells_run_idx) and by its
// group and version, the primary key's prefix.
const renewShownSQL = `
UPDATE best_cells b SET submitter = r.submitter, submitter_slug = r.submitter_slug
FROM runs r WHERE r.id = $1 AND b.run_id = r.id`

const renewVersionShownSQL = `
UPDATE version_best_cells b SET submitter = r.submitter, submitter_slug = r.submitter_slug
FROM runs r WHERE r.id = $1 AND b.run_id = r.id
    AND (b.model_slug, b.hardware_slug, b.engine_slug, b.quantization_slug, b.demo, b.engine_version) =
        (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, r.engine_version)`

// RenewClaimedRun renews the bests after a claim changed run id's
// submitter, and nothing else: the bests per submitter of its group
// (submitter_best_cells) are derived again from every run of the group,
// and the bests the run holds in the other tables take its new submitter
// (bestShownColumns), where they stand; its group's unpowered runs,
// counted per submitter too, are counted again. The caller holds LockBest.
func RenewClaimedRun(ctx context.Context, tx pgx.Tx, id string) error {
	b := &pgx.Batch{}
	b.Queue(renewShownSQL, id)
	b.Queue(renewVersionShownSQL, id)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("renew claimed run: %w", err)
	}
	if err := rebuildGroupBests(ctx, tx, id, submitterBests); err != nil {
		return err
	}
	return rebuildUnpowered(ctx, tx, id)
}

// RebuildAll recomputes the tables of bests, the run counts and the
// history tables from every run.
// The caller holds LockBest.
func RebuildAll(ctx context.Context, tx pgx.Tx) error {
	for _, t := range bestTables {
		if _, err := tx.Exec(ctx, `DELETE FROM `+t.name); err != nil {
			return err
		}
	}
	if err := recountAll(ctx, tx); err != nil {
		return err
	}
	for _, t := range bestTables {
		if _, err := tx.Exec(ctx, t.rebuildSQL("true")); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	return rebuildAllHistory(ctx, tx)
}
