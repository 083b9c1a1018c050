package store

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// publicReads is how the methods behind public pages and the API query:
// each query takes the pool Store.reader picks (replica.go), and one that
// fails on the replica is asked again of the primary. Write paths,
// accounts, sessions and drafts use s.pool, the primary, directly.
type publicReads struct{ s *Store }

// public is how the methods behind public pages query (publicReads).
func (s *Store) public() publicReads { return publicReads{s} }

// Query runs a query on the pool reader picks. A replica that cannot take
// it (down, or refusing) hands it to the primary; an error met later,
// while reading rows, is the caller's, as on any pool.
func (p publicReads) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	pool, onReplica := p.s.reader(ctx)
	rows, err := pool.Query(ctx, sql, args...)
	if err != nil && onReplica && p.s.read.failed(ctx, err) {
		return p.s.pool.Query(ctx, sql, args...)
	}
	return rows, err
}

// QueryRow runs a one-row query on the pool reader picks; a row the
// replica does not have, or an error there, is asked again of the primary
// when scanned.
func (p publicReads) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	pool, onReplica := p.s.reader(ctx)
	row := pool.QueryRow(ctx, sql, args...)
	if !onReplica {
		return row
	}
	return retryRow{row: row, retry: func(err error) pgx.Row {
		if !p.s.read.failed(ctx, err) {
			return nil
		}
		return p.s.pool.QueryRow(ctx, sql, args...)
	}}
}

// retryRow scans a replica's row, and the primary's when that fails.
type retryRow struct {
	row   pgx.Row
	retry func(error) pgx.Row // nil: keep the error
}

func (r retryRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	if err == nil {
		return nil
	}
	if again := r.retry(err); again != nil {
		return again.Scan(dest...)
	}
	return err
}

// readOnly is readBatch's transaction: one snapshot for every query.
var readOnly = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// readBatch runs the queries queue adds in a read-only, repeatable-read
// transaction (one snapshot for all of them) in one round trip: BEGIN, the
// queries and COMMIT go as one batch (transactBatch), and read reads the
// queries' results in order. A page miss waits for each round trip. It
// runs on the pool reader picks, and again on the primary when it fails
// on the replica, "not found" included.
func (s *Store) readBatch(ctx context.Context, queue func(*pgx.Batch), read func(pgx.BatchResults) error) error {
	pool, onReplica := s.reader(ctx)
	err := readBatchOn(ctx, pool, queue, read)
	if err != nil && onReplica && s.read.failed(ctx, err) {
		return readBatchOn(ctx, s.pool, queue, read)
	}
	return err
}

func readBatchOn(ctx context.Context, pool *pgxpool.Pool, queue func(*pgx.Batch), read func(pgx.BatchResults) error) error {
	return transactBatch(ctx, pool, readOnly, func(b *pgx.Batch) {
		queue(b)
		b.Queue(commitSQL)
	}, func(_ pgx.Tx, br pgx.BatchResults) error { return read(br) })
}
