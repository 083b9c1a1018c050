package db

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Reads of public pages and the API may go to a streaming replica
// (DATABASE_READ_URL); everything else stays on the primary: writes and
// the reads inside them, accounts and sessions, drafts, LISTEN, and any
// read under OnPrimary. Which pool a read takes is decided here alone, in
// DB.reader; the methods of public pages ask Public(), all others
// Pool().
//
// The rule that keeps a replica's lag invisible:
//
//   - The store keeps seen, the newest WAL position of the primary it knows
//     a change to be at or before: the primary's flush position read when
//     the store opens, after each of this process's own committed changes,
//     on each notification of another's change, and when the listening
//     connection (re)connects. It is learnt before the change is published
//     to the OnChange hooks, so a page cache that renews its generations has
//     raised seen first, and a page rebuilt for the new generation needs
//     the change replayed.
//   - A read goes to the replica only when the replica has replayed up to
//     seen (pg_last_wal_replay_lsn() ≥ seen); else to the primary. Replay
//     only moves forward, so a replay position read a moment ago is a lower
//     bound of the replica's position now: it is read again only while it is
//     behind what a read needs, and then at most every replayRecheck.
//   - A replica that does not answer is left alone for replicaDownFor;
//     reads go to the primary meanwhile.
//   - A read that fails on the replica, "not found" included (a run
//     another instance just stored, before this one heard of it), is asked
//     again of the primary.
//
// So the instance that answered 201 shows the new run at once (its own
// commit raised seen), and an instance that hears of a change never keeps
// a page built from a replica that has not replayed it.
//
// The position is the primary's WAL flush position
// (pg_current_wal_flush_lsn()), which is past a change's commit record
// once the commit has returned, or been announced, only if the commit was
// flushed: with a replica, a change's transaction is therefore never
// committed with synchronous_commit off (flushCommitSQL). The insert
// position would be past it anyway, but records nothing flushes (pruning
// done by reads) can keep it ahead of anything a replica ever replays.
// DATABASE_READ_URL must name one replica, not a balancer over several:
// their replay positions are not one sequence.

// replayRecheck is how often at most the replay position is read again
// while the one known is behind what reads need.
const replayRecheck = 5 * time.Millisecond

// replicaDownFor is how long a replica that failed is left alone.
const replicaDownFor = time.Second

// replicaCheckTimeout bounds the replay position's query, so a replica
// that hangs delays a read by at most this much.
const replicaCheckTimeout = 250 * time.Millisecond

// replica is the read pool and what the store knows of its replay.
type replica struct {
	pool *pgxpool.Pool

	mu        sync.Mutex
	replayed  uint64    // newest pg_last_wal_replay_lsn() read
	checked   time.Time // when it was read
	downUntil time.Time
	checking  bool // a read of replayed is under way

	stats readCounters
}

// readCounters count where reads went and why.
type readCounters struct {
	replica, caughtUp, behind, down, retried atomic.Uint64
}

// ReadStats count the public reads by where they went: Replica, or the
// primary because the replica was Behind the newest change seen or Down;
// Retried are reads that failed on the replica and were asked again of the
// primary. Primary is the reads routed to the primary without a replica,
// or under OnPrimary.
type ReadStats struct {
	Replica, Behind, Down, Retried, Primary uint64
}

// ReadStats reports the counts of public reads, for metrics.
func (d *DB) ReadStats() ReadStats {
	st := ReadStats{Primary: d.primaryReads.Load()}
	if r := d.read; r != nil {
		st.Replica, st.Behind = r.stats.replica.Load(), r.stats.behind.Load()
		st.Down, st.Retried = r.stats.down.Load(), r.stats.retried.Load()
	}
	return st
}

// HasReplica reports whether reads may go to a replica.
func (d *DB) HasReplica() bool { return d.read != nil }

type primaryKey struct{}

// OnPrimary returns a context whose reads all go to the primary: account
// pages, forms, and reads whose answer leads to a write.
func OnPrimary(ctx context.Context) context.Context {
	return context.WithValue(ctx, primaryKey{}, true)
}

// reader is the pool a public read takes now, and whether it is the
// replica (package comment above).
func (d *DB) reader(ctx context.Context) (*pgxpool.Pool, bool) {
	r := d.read
	if r == nil || ctx.Value(primaryKey{}) != nil {
		d.primaryReads.Add(1)
		return d.pool, false
	}
	if r.caughtUp(ctx, d.seen.v.Load()) {
		r.stats.replica.Add(1)
		return r.pool, true
	}
	return d.pool, false
}

// caughtUp reports whether the replica has replayed up to need, reading
// its replay position again when the one known is behind need and older
// than replayRecheck. One read checks at a time; the others meanwhile go
// to the primary rather than wait.
func (r *replica) caughtUp(ctx context.Context, need uint64) bool {
	r.mu.Lock()
	now := time.Now()
	switch {
	case now.Before(r.downUntil):
		r.mu.Unlock()
		r.stats.down.Add(1)
		return false
	case r.replayed >= need:
		r.mu.Unlock()
		return true
	case r.checking || now.Sub(r.checked) < replayRecheck:
		r.mu.Unlock()
		r.stats.behind.Add(1)
		return false
	}
	r.checking = true
	r.mu.Unlock()
	lsn, err := r.replayLSN(ctx)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.checking, r.checked = false, time.Now()
	if err != nil {
		if ctx.Err() == nil { // else the reader left, and the replica may be fine
			r.downUntil = r.checked.Add(replicaDownFor)
		}
		r.stats.down.Add(1)
		return false
	}
	r.replayed = max(r.replayed, lsn)
	if r.replayed >= need {
		return true
	}
	r.stats.behind.Add(1)
	return false
}

// replayLSN reads how far the replica has replayed, within
// replicaCheckTimeout.
func (r *replica) replayLSN(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, replicaCheckTimeout)
	defer cancel()
	var lsn uint64
	err := r.pool.QueryRow(ctx, `SELECT COALESCE(pg_last_wal_replay_lsn() - '0/0', 0)::bigint`).Scan(&lsn)
	return lsn, err
}

// failed tells whether a read that failed on the replica with err is to be
// asked again of the primary, and marks the replica down when err says it
// cannot be reached.
func (r *replica) failed(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	if IsUnavailable(err) {
		r.mu.Lock()
		r.downUntil = time.Now().Add(replicaDownFor)
		r.mu.Unlock()
	}
	r.stats.retried.Add(1)
	return true
}
