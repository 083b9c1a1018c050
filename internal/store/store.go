// Package store keeps runs in PostgreSQL: the derived run, its cells and
// prefill rows, and the uploaded document byte for byte. It is the only
// package that writes SQL; every query lives next to the method that runs it.
package store

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNotFound is returned, wrapped, when the asked-for run does not exist.
// Handlers turn it into a 404.
var ErrNotFound = errors.New("not found")

// Store is a handle on the database. It is safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool
	changes changeHooks // told of every committed change (changes.go)
	name    string      // this handle's name in its announcements, random
}

// Open connects to the database at url (postgres://…). It does not migrate:
// the server runs Migrate first, and refuses to start if that fails.
func Open(ctx context.Context, url string) (_ *Store, err error) {
	defer wrap(&err, "store.Open")
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return &Store{pool: pool, name: rand.Text()[:12]}, nil
}

// Close waits for queries in flight and closes every connection.
func (s *Store) Close() { s.pool.Close() }

// Ping checks that the database answers, for health checks.
func (s *Store) Ping(ctx context.Context) (err error) {
	defer wrap(&err, "Ping")
	return s.pool.Ping(ctx)
}

// transact runs fn in a transaction, committing when fn returns nil and
// rolling back when it returns an error or panics, so that no caller can
// forget either.
func (s *Store) transact(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) (err error) {
	tx, err := s.pool.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback(context.WithoutCancel(ctx))
			panic(p)
		}
		if err != nil {
			// The rollback error adds nothing: the connection is
			// discarded by pgx when the rollback fails.
			_ = tx.Rollback(context.WithoutCancel(ctx))
			return
		}
		if err = tx.Commit(ctx); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}()
	return fn(tx)
}

// wrap prefixes a non-nil *errp with the operation and its arguments,
// keeping the original error reachable by errors.Is.
func wrap(errp *error, format string, args ...any) {
	if *errp != nil {
		*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
	}
}

// notFound maps pgx.ErrNoRows to ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// PoolStat reports the connection pool's statistics, for metrics.
func (s *Store) PoolStat() *pgxpool.Stat { return s.pool.Stat() }
