package db

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// The primary's WAL position the store knows changes to be at or before
// (replica.go has the rule that uses it).

// unknownLSN is seen when a change's position could not be read: every
// read goes to the primary until the listening connection resynchronises.
const unknownLSN = ^uint64(0)

// seenLSN is the newest position of the primary the store knows a change
// to be at or before; unknownLSN while a change's could not be read.
type seenLSN struct {
	v       atomic.Uint64 // read by every routed read, without the lock
	mu      sync.Mutex    // orders the writes
	unknown uint64        // how many times v was set to unknownLSN
}

// learn raises v to lsn, a position of the primary read after a change
// committed; a failed read (ok false) sets it to unknownLSN, so that every
// read goes to the primary until the next resync.
func (p *seenLSN) learn(lsn uint64, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case !ok:
		p.v.Store(unknownLSN)
		p.unknown++
	case lsn > p.v.Load():
		p.v.Store(lsn)
	}
}

// resync sets v from read, a position read when nothing can have been
// missed before it (the store opening, the listener connecting). It
// clears unknownLSN unless a change's position was lost while reading:
// that change may be past what was read.
func (p *seenLSN) resync(read func() (uint64, error)) error {
	p.mu.Lock()
	before := p.unknown
	p.mu.Unlock()
	lsn, err := read()
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if v := p.v.Load(); (v == unknownLSN && p.unknown == before) || (v != unknownLSN && lsn > v) {
		p.v.Store(lsn)
	}
	return nil
}

// RowQuerier is a pool, a connection or a transaction.
type RowQuerier interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}

// primaryLSN reads the primary's WAL flush position on q.
func primaryLSN(ctx context.Context, q RowQuerier) (uint64, error) {
	var lsn uint64
	err := q.QueryRow(ctx, `SELECT (pg_current_wal_flush_lsn() - '0/0')::bigint`).Scan(&lsn)
	return lsn, err
}

// learnAfter learns the primary's position after a change committed,
// reading it on q (the primary). Without a replica no read depends on it.
func (d *DB) learnAfter(ctx context.Context, q RowQuerier) {
	if d.read == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	lsn, err := primaryLSN(ctx, q)
	d.seen.learn(lsn, err == nil)
}

// resync reads the primary's position on q when the store opens and each
// time the listener (re)connects: the store then knows of every change
// committed before.
func (d *DB) resync(ctx context.Context, q RowQuerier) error {
	if d.read == nil {
		return nil
	}
	return d.seen.resync(func() (uint64, error) { return primaryLSN(ctx, q) })
}
