package bests

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Run counts (migration 0015). Every upload of one setup used to add to
// the same browse_groups row, holding its lock until the commit was
// flushed, so concurrent uploads of a setup took turns. Now an upload
// appends its runs to browse_count_deltas, a table with no key that no one
// waits on, and makes sure its group's row exists (a row already there is
// left unlocked); the fold (foldCountsSQL) moves the deltas into
// browse_groups, identity_runs (per hardware, engine and model variant)
// and engine_version_runs in one statement. A reader adds the deltas not
// folded yet to the folded counts, in one statement, so it sees every
// committed upload exactly once, folded or not.
//
// The server folds every second (KeepCountsFolded), so the deltas a
// reader adds stay a second's uploads. A transaction that takes a run out
// of the counts (hide, delete) folds too, under bestLock held exclusively,
// so that no upload's deltas are in flight: a group or identity left with
// no run is then deleted at once, as entity pages must stop linking to it.

// foldLock keeps folds apart. Taken after bestLock by whoever holds both
// (the lock order: the package comment); an upload never takes it.
const foldLock = 0x5e3d_f01d

// groupCounts are the group counts a reader adds up: the folded ones and
// the deltas, the key's columns and runs, one row per group and source.
const groupCounts = `SELECT model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs`

// The statements that count runs in their browse groups: one run by its
// stored row (count_run_*.sql: an upload's, a hidden run shown again, or
// taken out), or runs counted in memory, one element per group
// (count_*.sql: FreshIndex). Each makes the group's row when it has none
// yet, and the run's version's history_versions row when it is one a
// history reads (historyRankable; the setup's history_setups row counts a
// new version), each with no runs, then appends the runs to
// browse_count_deltas, with those a history reads in history_runs: the
// fold adds them up (migration 0017).
var (
	countRunGroupsSQL   = sqlFile("count_run_groups")
	countRunVersionsSQL = sqlFile("count_run_versions")
	countRunDeltasSQL   = sqlFile("count_run_deltas")
	countGroupsSQL      = sqlFile("count_groups")
	countVersionsSQL    = sqlFile("count_versions")
	countDeltasSQL      = sqlFile("count_deltas")
)

// queueCountRun queues on b the count of run id, sign times (1, or -1 for
// a run that leaves), in lock order (the package comment). A run leaving
// is hidden already, so it counts no history run: a history's counts are
// derived again from its runs (rebuildHistoryOf) whenever one is hidden,
// shown or goes.
func queueCountRun(b *pgx.Batch, id string, sign int64) {
	b.Queue(countRunGroupsSQL, id)
	b.Queue(countRunVersionsSQL, id)
	b.Queue(countRunDeltasSQL, id, sign)
}

// CountRun is queueCountRun in a round trip of its own.
func CountRun(ctx context.Context, tx pgx.Tx, id string, sign int64) error {
	b := &pgx.Batch{}
	queueCountRun(b, id, sign)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("count run: %w", err)
	}
	return nil
}

// identityCountsOf lists rows of browse_groups or browse_count_deltas
// (alias d) as the identities they count, one row each for the hardware,
// the engine and the model variant (with its base).
const identityCountsOf = `CROSS JOIN LATERAL (VALUES ('hardware', d.hardware_slug, ''), ('engine', d.engine_slug, ''),
    ('model', d.model_slug, d.model_base_slug)) AS k (kind, slug, base)
WHERE k.slug <> ''`

// foldCountsSQL moves every delta its snapshot sees into the folded
// counts, in one statement, and returns how many there were.
var foldCountsSQL = sqlFile("fold_counts")

// foldCounts folds the deltas in tx and reports how many there were.
func foldCounts(ctx context.Context, tx pgx.Tx) (int64, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, foldLock); err != nil {
		return 0, fmt.Errorf("lock counts: %w", err)
	}
	var n int64
	if err := tx.QueryRow(ctx, foldCountsSQL).Scan(&n); err != nil {
		return 0, fmt.Errorf("fold counts: %w", err)
	}
	if _, err := tx.Exec(ctx, foldUnpoweredSQL); err != nil {
		return 0, fmt.Errorf("fold unpowered runs: %w", err)
	}
	return n, nil
}

// FoldCounts folds the run counts uploads appended into the kept counts
// and reports how many deltas it folded. Readers add the deltas up
// themselves, so counts are exact either way; folding keeps what they add
// small.
func (s *Bests) FoldCounts(ctx context.Context) (n int64, err error) {
	defer db.Wrap(&err, "FoldCounts")
	err = s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		n, err = foldCounts(ctx, tx)
		return err
	})
	return n, err
}

// KeepCountsFolded folds the run counts every so often until ctx ends.
func (s *Bests) KeepCountsFolded(ctx context.Context, every time.Duration, log *slog.Logger) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if _, err := s.FoldCounts(ctx); err != nil && ctx.Err() == nil {
			log.Error("folding run counts", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// UncountRun takes run id out of the counts (it was hidden or is being
// deleted) and drops its group, and its identities' and version's counts,
// when no run is left in them. The caller holds LockBest, so every
// upload's deltas are committed and the fold sees them all.
func UncountRun(ctx context.Context, tx pgx.Tx, id string) error {
	if err := CountRun(ctx, tx, id, -1); err != nil {
		return err
	}
	if _, err := foldCounts(ctx, tx); err != nil {
		return err
	}
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM browse_groups g
WHERE g.runs <= 0 AND (g.model_slug, g.hardware_slug, g.engine_slug, g.engine_version, g.quantization_slug) =
    (SELECT model_slug, hardware_slug, engine_slug, engine_version, quantization_slug FROM runs WHERE id = $1)`, id)
	b.Queue(`DELETE FROM identity_runs i
USING runs d CROSS JOIN LATERAL (VALUES ('hardware', d.hardware_slug, ''), ('engine', d.engine_slug, ''),
    ('model', d.model_slug, d.model_base_slug)) AS k (kind, slug, base)
WHERE k.slug <> '' AND d.id = $1 AND (i.kind, i.slug) = (k.kind, k.slug) AND i.runs <= 0`, id)
	b.Queue(`DELETE FROM engine_version_runs v USING runs r
WHERE r.id = $1 AND (v.engine_slug, v.engine_version) = (r.engine_slug, r.engine_version) AND v.runs <= 0`, id)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("uncount run: %w", err)
	}
	return nil
}

// recountAll derives every count again from the shown runs, deltas
// dropped. The caller holds LockBest.
func recountAll(ctx context.Context, tx pgx.Tx) error {
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1)`, foldLock)
	for _, sql := range []string{`DELETE FROM browse_count_deltas`, `DELETE FROM browse_groups`,
		`DELETE FROM identity_runs`, `DELETE FROM engine_version_runs`} {
		b.Queue(sql)
	}
	b.Queue(`INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version,
    quantization_slug, runs)
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, count(*)
FROM runs WHERE NOT hidden
GROUP BY model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`)
	b.Queue(`INSERT INTO identity_runs (kind, slug, base, runs)
SELECT k.kind, k.slug, min(k.base), sum(d.runs)
FROM browse_groups d CROSS JOIN LATERAL (VALUES ('hardware', d.hardware_slug, ''), ('engine', d.engine_slug, ''),
    ('model', d.model_slug, d.model_base_slug)) AS k (kind, slug, base)
WHERE k.slug <> ''
GROUP BY 1, 2`)
	b.Queue(`INSERT INTO engine_version_runs (engine_slug, engine_version, runs)
SELECT engine_slug, engine_version, sum(runs) FROM browse_groups WHERE engine_version <> '' GROUP BY 1, 2`)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("recount: %w", err)
	}
	return rebuildAllUnpowered(ctx, tx)
}
