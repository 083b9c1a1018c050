package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PublicReads is how the methods behind public pages and the API query:
// each query takes the pool DB.reader picks (replica.go), and one that
// fails on the replica is asked again of the primary. Write paths,
// accounts, sessions and drafts use Pool, the primary, directly.
type PublicReads struct{ d *DB }

// Public is how the methods behind public pages query (PublicReads).
func (d *DB) Public() PublicReads { return PublicReads{d} }

// Query runs a query on the pool reader picks. A replica that cannot take
// it (down, or refusing) hands it to the primary; an error met later,
// while reading rows, is the caller's, as on any pool.
func (p PublicReads) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	pool, onReplica := p.d.reader(ctx)
	rows, err := pool.Query(ctx, sql, args...)
	if err != nil && onReplica && p.d.read.failed(ctx, err) {
		return p.d.pool.Query(ctx, sql, args...)
	}
	return rows, err
}

// QueryRow runs a one-row query on the pool reader picks; a row the
// replica does not have, or an error there, is asked again of the primary
// when scanned.
func (p PublicReads) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	pool, onReplica := p.d.reader(ctx)
	row := pool.QueryRow(ctx, sql, args...)
	if !onReplica {
		return row
	}
	return retryRow{row: row, retry: func(err error) pgx.Row {
		if !p.d.read.failed(ctx, err) {
			return nil
		}
		return p.d.pool.QueryRow(ctx, sql, args...)
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

// readOnly is ReadBatch's transaction: one snapshot for every query.
var readOnly = pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}

// ReadBatch runs the queries queue adds in a read-only, repeatable-read
// transaction (one snapshot for all of them) in one round trip: BEGIN, the
// queries and COMMIT go as one batch (transactBatch), and read reads the
// queries' results in order. A page miss waits for each round trip. It
// runs on the pool reader picks, and again on the primary when it fails
// on the replica, "not found" included.
func (d *DB) ReadBatch(ctx context.Context, queue func(*pgx.Batch), read func(pgx.BatchResults) error) error {
	pool, onReplica := d.reader(ctx)
	err := readBatchOn(ctx, pool, queue, read)
	if err != nil && onReplica && d.read.failed(ctx, err) {
		return readBatchOn(ctx, d.pool, queue, read)
	}
	return err
}

func readBatchOn(ctx context.Context, pool *pgxpool.Pool, queue func(*pgx.Batch), read func(pgx.BatchResults) error) error {
	return transactBatch(ctx, pool, readOnly, func(b *pgx.Batch) {
		queue(b)
		b.Queue(commitSQL)
	}, func(_ pgx.Tx, br pgx.BatchResults) error { return read(br) })
}
