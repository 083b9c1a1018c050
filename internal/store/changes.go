package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/jackc/pgx/v5"
)

// ChangesChannel is the one PostgreSQL NOTIFY channel every write path
// announces its change on, so every instance on the database can renew
// what it cached.
const ChangesChannel = "speedmatrix_changes"

// Change says what a committed write affected.
type Change struct {
	// Runs are the runs whose own pages (report, exports, images) changed.
	Runs []string `json:"runs,omitempty"`
	// Site means lists, leaderboards, entity pages and the home page may
	// have changed.
	Site bool `json:"site,omitempty"`
	// Reset means anything may have changed: the listening connection was
	// lost (notifications may have been missed) or a bulk rebuild ran.
	Reset bool `json:"reset,omitempty"`
	// Remote is set on changes learnt from the channel, another
	// instance's, rather than from this process's own commit.
	Remote bool `json:"-"`
	// From names the Store that announced it, so its own announcements,
	// published already at commit, are not published twice.
	From string `json:"from,omitempty"`
}

// maxPayload keeps a NOTIFY payload under PostgreSQL's 8000-byte limit; a
// change naming more runs than fit is sent as a reset.
const maxPayload = 7000

// changeHooks are the functions told of every change, local or remote.
type changeHooks struct {
	mu    sync.RWMutex
	hooks []func(Change)
}

// OnChange registers f to be told of every change: synchronously after
// this process's own commits (before the writing method returns, so the
// instance that answered never serves stale afterwards) and, while Listen
// runs, of every change announced on the channel.
func (s *Store) OnChange(f func(Change)) {
	s.changes.mu.Lock()
	defer s.changes.mu.Unlock()
	s.changes.hooks = append(s.changes.hooks, f)
}

// publish tells every hook of c.
func (s *Store) publish(c Change) {
	s.changes.mu.RLock()
	hooks := s.changes.hooks
	s.changes.mu.RUnlock()
	for _, f := range hooks {
		f(c)
	}
}

// announce sends c on the channel inside tx, so other instances hear of it
// exactly when it commits (PostgreSQL delivers notifications on commit and
// drops them on rollback). With flushed set, the commit flushes the WAL
// before it returns (replica.go).
func announce(ctx context.Context, tx pgx.Tx, c Change, from string, flushed bool) error {
	payload, err := announcement(c, from)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	if flushed {
		b.Queue(flushCommitSQL)
	}
	b.Queue(notifySQL, ChangesChannel, payload)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	return nil
}

// notifySQL announces a change on a channel.
const notifySQL = `SELECT pg_notify($1, $2)`

// flushCommitSQL makes its transaction's commit flush the WAL before it
// returns, should the session have turned synchronous_commit off: the
// position read after the commit must be past it (replica.go).
const flushCommitSQL = `SELECT CASE WHEN current_setting('synchronous_commit') = 'off'
    THEN set_config('synchronous_commit', 'local', true) END`

// queueCommitAnnounce queues COMMIT, then the announcement of c in a
// transaction of its own, last in a batch a write sends anyway (the
// upload: announce's round trip saved). Announced inside the write's
// transaction, c would serialise every commit: PostgreSQL holds one lock
// per database from a notifying transaction's pre-commit until its commit
// is flushed, so notifying uploads flushed their WAL one after another
// instead of together (docs/performance.md). After the commit the lock
// covers a transaction that writes nothing worth flushing, so it commits
// with synchronous_commit off and holds the lock for microseconds.
// Listeners hear of the change just after it committed, as before; should
// the announcement be lost to a crash of the server, so are the
// listeners' connections, and they reset (Listen). With flushed, the
// write's own commit flushes the WAL before it returns (replica.go).
// sendCommitAnnounced sends the batch.
func queueCommitAnnounce(b *pgx.Batch, c Change, from string, flushed bool) error {
	payload, err := announcement(c, from)
	if err != nil {
		return err
	}
	if flushed {
		b.Queue(flushCommitSQL)
	}
	b.Queue(commitSQL)
	b.Queue(notifyAfterCommitSQL, ChangesChannel, payload)
	return nil
}

// notifyAfterCommitSQL announces a committed change (queueCommitAnnounce).
const notifyAfterCommitSQL = `SELECT pg_notify($1, $2), set_config('synchronous_commit', 'off', true)`

// sendCommitAnnounced sends b, which queueCommitAnnounce ended, on tx and
// returns the first error up to the commit. The write is committed
// whatever the announcement does after it, so an announcement that fails
// is sent once more on its own rather than failing the write.
func sendCommitAnnounced(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
	br := tx.SendBatch(ctx, b)
	for range b.Len() - 1 {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return err
		}
	}
	_, nerr := br.Exec()
	cerr := br.Close()
	if nerr == nil {
		return cerr
	}
	notify := b.QueuedQueries[b.Len()-1]
	_, _ = tx.Exec(ctx, notify.SQL, notify.Arguments...) // on tx's connection, after its commit
	return nil
}

// announcement is c's payload on the channel, from the Store named from.
func announcement(c Change, from string) (string, error) {
	c.From = from
	payload, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	if len(payload) > maxPayload {
		payload, _ = json.Marshal(Change{Reset: true, From: from})
	}
	return string(payload), nil
}

// any reports whether c says that anything changed.
func (c Change) any() bool { return c.Site || c.Reset || len(c.Runs) > 0 }

// transactChange is transact for a write that changes what readers see: fn
// returns the change, which is announced in the transaction and published
// to this process's hooks after the commit.
func (s *Store) transactChange(ctx context.Context, fn func(pgx.Tx) (Change, error)) error {
	var c Change
	err := s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var err error
		if c, err = fn(tx); err != nil {
			return err
		}
		if c.any() {
			return announce(ctx, tx, c, s.name, s.read != nil)
		}
		return nil
	})
	if err == nil && c.any() {
		s.learnAfter(ctx, s.pool) // before the hooks renew anything (replica.go)
		s.publish(c)
	}
	return err
}

// siteChange is a write that changes lists and leaderboards only.
func siteChange(fn func(pgx.Tx) error) func(pgx.Tx) (Change, error) {
	return func(tx pgx.Tx) (Change, error) { return Change{Site: true}, fn(tx) }
}

// runChange is a write that changes run id's own pages and the lists, and
// perhaps the history link of its setup's other versions (read before fn,
// which may delete the run).
func runChange(ctx context.Context, id string, fn func(pgx.Tx) error) func(pgx.Tx) (Change, error) {
	return func(tx pgx.Tx) (Change, error) {
		others, reset, err := seriesRuns(ctx, tx, id)
		if err != nil {
			return Change{}, err
		}
		return Change{Runs: append(others, id), Site: true, Reset: reset}, fn(tx)
	}
}
