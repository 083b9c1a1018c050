// Package store keeps runs in PostgreSQL: the derived run, its cells and
// prefill rows, and the uploaded document byte for byte. It is the only
// package that writes SQL; every query lives next to the method that runs it,
// or, when it is longer than a few lines, in a file of sql/ loaded by name
// (sqlfiles.go).
package store

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

// ErrNotFound is returned, wrapped, when the asked-for run does not exist.
// Handlers turn it into a 404.
var ErrNotFound = errors.New("not found")

// Store is a handle on the database. It is safe for concurrent use.
type Store struct {
	pool    *pgxpool.Pool // the primary
	changes changeHooks   // told of every committed change (changes.go)
	name    string        // this handle's name in its announcements, random
	bounds  *bestBounds   // what its uploads learned of the stored bests

	// Where public reads (reads.go) go (replica.go).
	read         *replica // nil: every read on the primary
	seen         seenLSN
	primaryReads atomic.Uint64
}

// Open connects to the database at url (postgres://…). It does not migrate:
// the server runs Migrate first, and refuses to start if that fails.
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenWithReplica(ctx, url, "")
}

// OpenWithReplica is Open with the public pages' reads going to the
// streaming replica at readURL when it has replayed what they need
// (replica.go); an empty readURL is Open. The replica need not answer
// yet: until it does, reads go to the primary.
func OpenWithReplica(ctx context.Context, url, readURL string) (_ *Store, err error) {
	defer wrap(&err, "store.Open")
	pool, err := connect(ctx, url, "")
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	s := &Store{pool: pool, name: rand.Text()[:12], bounds: newBestBounds(defaultBoundBytes)}
	if readURL == "" {
		return s, nil
	}
	rp, err := connect(ctx, readURL, "speedmatrix-read")
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("DATABASE_READ_URL: %w", err)
	}
	s.read = &replica{pool: rp}
	if err := s.resync(ctx, pool); err != nil {
		s.Close()
		return nil, err
	}
	if err := checkReplica(ctx, rp); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
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
func (s *Store) Close() {
	s.pool.Close()
	if s.read != nil {
		s.read.pool.Close()
	}
}

// Ping checks that the database answers, for health checks.
func (s *Store) Ping(ctx context.Context) (err error) {
	defer wrap(&err, "Ping")
	return s.pool.Ping(ctx)
}

// transact runs fn in a transaction on the primary, committing when fn
// returns nil and rolling back when it returns an error or panics, so that
// no caller can forget either (transactBatch).
func (s *Store) transact(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	return transactBatch(ctx, s.pool, opts, nil, func(tx pgx.Tx, br pgx.BatchResults) error {
		if err := br.Close(); err != nil {
			return err
		}
		return fn(tx)
	})
}

// commitSQL ends a transaction from inside a batch: queued last, or
// before statements meant to run after the commit (queueCommitAnnounce),
// it saves the round trip of a COMMIT of its own (transactBatch).
const commitSQL = "COMMIT"

// transactBatch is how the store runs a transaction; transact and
// readBatch are it for their callers. On a connection of pool it sends
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
