package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// querier is what a statement needs of a transaction: a pgx.Tx, or the
// connection of a pipelined one.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// pipelined runs fn on a connection of its own for a transaction that fn
// begins and commits itself, BEGIN queued as the first statement of its
// first batch and COMMIT as the last of its last (beginSQL, commitSQL):
// two round trips fewer than transact, for the write done most often, the
// upload. A batch is one pipeline with one Sync: once a statement fails
// the rest, COMMIT included, are skipped and the transaction is aborted.
// Whenever fn fails or panics, or returns with the transaction still open,
// it is rolled back; nothing is committed unless fn's COMMIT ran.
func (s *Store) pipelined(ctx context.Context, fn func(conn *pgxpool.Conn) error) (err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// A connection still in a transaction is closed, not reused (pgxpool).
	defer conn.Release()
	defer func() {
		p := recover()
		open := conn.Conn().PgConn().TxStatus() != 'I'
		if err == nil && p == nil && open {
			err = errors.New("transaction left open: rolled back")
		}
		if open {
			_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		}
		if p != nil {
			panic(p)
		}
	}()
	return fn(conn)
}

const (
	// beginSQL names the isolation level, whatever the database's default
	// (default_transaction_isolation): the offers of bests rely on each
	// statement taking its own snapshot, after the locks taken before it
	// (bestTable.offerOneSQL).
	beginSQL  = "BEGIN ISOLATION LEVEL READ COMMITTED"
	commitSQL = "COMMIT"
)
