package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Hooks for the external tests (package store_test, which must be external
// because dbtest imports store).

// RunIDs exposes runIDs.
var RunIDs = runIDs

// Transact exposes transact.
func Transact(ctx context.Context, s *Store, fn func(pgx.Tx) error) error {
	return s.transact(ctx, pgx.TxOptions{}, fn)
}

// RebuildAllBest recomputes best_cells and browse_groups from every run, as
// the backfill does: what the kept-current index must equal.
func RebuildAllBest(ctx context.Context, s *Store) error {
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := lockBest(ctx, tx); err != nil {
			return err
		}
		return rebuildAllBest(ctx, tx)
	})
}
