// Package db is the footing every part of the store stands on: the handle
// on the database (DB: the primary's pool, and the replica that public
// reads may take, replica.go), the one way to run a transaction
// (TransactBatch, and Transact for its callers), the announcement of
// committed changes to every instance (changes.go, listen.go), the loader
// of statements kept in sql/ files (sqlfile.go), and the errors every part
// shares (ErrNotFound, Wrap, NotFound, IsUnavailable, IsDiskFull).
//
// It owns no table and knows no run, account or best. It must not import
// any other package of the store: packages bests, accounts and store
// import it, and it sits below them all.
package db

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrNotFound is returned, wrapped, when the asked-for row does not exist.
// Handlers turn it into a 404.
var ErrNotFound = errors.New("not found")

// DB is a handle on the database. It is safe for concurrent use.
type DB struct {
	pool    *pgxpool.Pool // the primary
	changes changeHooks   // told of every committed change (changes.go)
	name    string        // this handle's name in its announcements, random

	// Where public reads (reads.go) go (replica.go).
	read         *replica // nil: every read on the primary
	seen         seenLSN
	primaryReads atomic.Uint64
}

// New is a handle on pool, the primary, with no replica.
func New(pool *pgxpool.Pool) *DB {
	return &DB{pool: pool, name: rand.Text()[:12]}
}

// Open connects to the database at url (postgres://…), with the public
// pages' reads going to the streaming replica at readURL when it has
// replayed what they need (replica.go); an empty readURL is none. The
// replica need not answer yet: until it does, reads go to the primary.
// It does not migrate.
func Open(ctx context.Context, url, readURL string) (*DB, error) {
	pool, err := connect(ctx, url, "")
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	d := New(pool)
	if readURL == "" {
		return d, nil
	}
	rp, err := connect(ctx, readURL, "speedmatrix-read")
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("DATABASE_READ_URL: %w", err)
	}
	d.read = &replica{pool: rp}
	if err := d.resync(ctx, pool); err != nil {
		d.Close()
		return nil, err
	}
	if err := checkReplica(ctx, rp); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// checkReplica refuses a read URL that names a server not in recovery (the
// primary itself, say): its replay position never moves, so every read
// would quietly go to the primary. A replica that does not answer yet is
// let be; reads go to the primary until it does.
func checkReplica(ctx context.Context, rp *pgxpool.Pool) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var recovering bool
	if err := rp.QueryRow(ctx, `SELECT pg_is_in_recovery()`).Scan(&recovering); err != nil {
		return nil
	}
	if !recovering {
		return errors.New("DATABASE_READ_URL: the server is not a replica (pg_is_in_recovery() is false)")
	}
	return nil
}

// connect makes a pool on url, naming its sessions app (in
// pg_stat_activity) unless the URL names them.
func connect(ctx context.Context, url, app string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	if _, named := cfg.ConnConfig.RuntimeParams["application_name"]; app != "" && !named {
		cfg.ConnConfig.RuntimeParams["application_name"] = app
	}
	return pgxpool.NewWithConfig(ctx, cfg)
}

// Close waits for queries in flight and closes every connection.
func (d *DB) Close() {
	d.pool.Close()
	if d.read != nil {
		d.read.pool.Close()
	}
}

// Ping checks that the database answers, for health checks.
func (d *DB) Ping(ctx context.Context) (err error) {
	defer Wrap(&err, "Ping")
	return d.pool.Ping(ctx)
}

// Pool is the primary: write paths, the reads inside them, accounts,
// sessions and drafts query it directly; public pages' reads go by Public.
func (d *DB) Pool() *pgxpool.Pool { return d.pool }

// PoolStat reports the connection pool's statistics, for metrics.
func (d *DB) PoolStat() *pgxpool.Stat { return d.pool.Stat() }

// Transact runs fn in a transaction on the primary, committing when fn
// returns nil and rolling back when it returns an error or panics, so that
// no caller can forget either (TransactBatch).
func (d *DB) Transact(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	return d.TransactBatch(ctx, opts, nil, func(tx pgx.Tx, br pgx.BatchResults) error {
		if err := br.Close(); err != nil {
			return err
		}
		return fn(tx)
	})
}

// TransactBatch is transactBatch on the primary: an upload's first round
// trip is BEGIN and its first statements in one batch.
func (d *DB) TransactBatch(ctx context.Context, opts pgx.TxOptions, queue func(*pgx.Batch),
	fn func(tx pgx.Tx, br pgx.BatchResults) error) error {
	return transactBatch(ctx, d.pool, opts, queue, fn)
}

// commitSQL ends a transaction from inside a batch: queued last, or
// before statements meant to run after the commit (QueueCommitAnnounce),
// it saves the round trip of a COMMIT of its own (transactBatch).
const commitSQL = "COMMIT"

// transactBatch is how the store runs a transaction; Transact, TransactBatch
// and ReadBatch are it for their callers. On a connection of pool it sends
// BEGIN (with opts) and the statements queue adds (nil: none) as one
// batch, one round trip (pgx.Batch.BeginTx), and hands fn the transaction
// and the batch's results, to read in the order queued. fn closes br
// before it sends anything more on tx.
//
// When fn returns nil, the transaction is committed: by the commitSQL a
// batch of fn's queued, when one did (a read, an upload: no round trip of
// its own), else by a COMMIT sent then. When fn fails or panics it is
// rolled back. A batch is one pipeline with one Sync: once a statement
// fails the rest, COMMIT included, are skipped and the transaction is
// aborted; nothing is committed unless a COMMIT ran.
func transactBatch(ctx context.Context, pool *pgxpool.Pool, opts pgx.TxOptions, queue func(*pgx.Batch),
	fn func(tx pgx.Tx, br pgx.BatchResults) error) (err error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// A connection still in a transaction is closed, not reused (pgxpool).
	defer conn.Release()
	b := &pgx.Batch{}
	b.BeginTx(opts)
	if queue != nil {
		queue(b)
	}
	br := conn.Conn().SendBatch(ctx, b)
	tx := br.Tx()
	defer func() {
		p := recover()
		// Close reads what fn left unread, a COMMIT queued included.
		if cerr := br.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("commit: %w", cerr)
		}
		open := conn.Conn().PgConn().TxStatus() != 'I'
		switch {
		case !open: // committed by a batch, or never begun
		case p != nil || err != nil:
			// The rollback error adds nothing: pgx closes the
			// connection when the rollback fails.
			_ = tx.Rollback(context.WithoutCancel(ctx))
		default:
			if err = tx.Commit(ctx); err != nil {
				err = fmt.Errorf("commit: %w", err)
			}
		}
		if p != nil {
			panic(p)
		}
	}()
	if _, err := br.Exec(); err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	return fn(tx, br)
}

// Wrap prefixes a non-nil *errp with the operation and its arguments,
// keeping the original error reachable by errors.Is.
func Wrap(errp *error, format string, args ...any) {
	if *errp != nil {
		*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
	}
}

// NotFound maps pgx.ErrNoRows to ErrNotFound.
func NotFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
