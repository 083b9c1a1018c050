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
