package bests

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Hooks on a Bests handle's bounds on the stored bests (bestBounds), for the
// external tests.

// SetAfterEpochRead makes every upload of s call fn between its read of
// best_epoch and its offers (nil: none).
func SetAfterEpochRead(s *Bests, fn func()) { s.bounds.afterHint = fn }

// BoundsMarked is how many offers s's uploads marked as unable to win.
func BoundsMarked(s *Bests) int {
	s.bounds.mu.Lock()
	defer s.bounds.mu.Unlock()
	return s.bounds.marked
}

// BoundedOfferSQL is the offer statement of an upload to table i of
// bestTables.
func BoundedOfferSQL(i int) string { return bestTables[i].offerRun }

// BoundsEpoch is the epoch s's bounds were learned under, and whether s
// read one.
func BoundsEpoch(s *Bests) (int64, bool) {
	s.bounds.mu.Lock()
	defer s.bounds.mu.Unlock()
	return s.bounds.epoch, s.bounds.known
}

// Transact runs fn in a transaction of s's database.
func Transact(ctx context.Context, s *Bests, fn func(pgx.Tx) error) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, fn)
}

// RebuildAllBest recomputes the browse index from every run, as the
// backfill does: what the kept-current index must equal.
func RebuildAllBest(ctx context.Context, s *Bests) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := LockBest(ctx, tx); err != nil {
			return err
		}
		return RebuildAll(ctx, tx)
	})
}

// RunIndexSQL is the browse index's statements that file one uploaded run,
// with a literal list of parameters for each that EXECUTE accepts.
func RunIndexSQL() map[string]string {
	// A run's offers, none marked (every offer probes), of a run that
	// names a version and a proven submitter.
	offer := `'{0}', '{1}', '{total_tps}', '{valid}', '{-1}', '{1}', 'm', 'b', 'h', 'e', 'q', true, 'a', '2026-12-01', 'v', 'S', 's'`
	marks := `, '{false}', 0`
	return map[string]string{
		groupBests.offerRun:     offer + marks,
		versionBests.offerRun:   offer + marks,
		submitterBests.offerRun: offer + marks,
		countRunGroupsSQL:       `'a'`,
		countRunVersionsSQL:     `'a'`,
		countRunDeltasSQL:       `'a', 1`,
		offerRunHistorySQL:      `'a', '{a}', '{0}', '{1}', '{2.5}'`,
	}
}

// CountSQL is the statements that read the counts kept per identity, each
// with a parameter and the table of counts it is to read.
var CountSQL = []struct{ SQL, Arg, Table string }{
	{countIdentitiesSQL, KindHardware, "identity_runs"},
	{engineVersionsSQL, "vllm", "engine_version_runs"},
}

// LiveLeaderboard is Leaderboard ranked from the runs' own cells whatever
// the filter: what a board read from a table of bests must equal.
func (s *Bests) LiveLeaderboard(ctx context.Context, lq LeaderQuery) ([]LeaderRow, error) {
	return s.leaderboard(ctx, lq, true)
}
