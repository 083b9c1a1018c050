package db

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
	// From names the handle (DB) that announced it, so its own announcements,
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
func (d *DB) OnChange(f func(Change)) {
	d.changes.mu.Lock()
	defer d.changes.mu.Unlock()
	d.changes.hooks = append(d.changes.hooks, f)
}

// publish tells every hook of c.
func (d *DB) publish(c Change) {
	d.changes.mu.RLock()
	hooks := d.changes.hooks
	d.changes.mu.RUnlock()
	for _, f := range hooks {
		f(c)
	}
}

// PublishCommitted tells this process's hooks of c, which a write
// committed on the primary just now, after learning the primary's
// position (replica.go): before the hooks renew anything, so that nothing
// renewed is read from a replica that has not replayed c.
func (d *DB) PublishCommitted(ctx context.Context, c Change) {
	d.learnAfter(ctx, d.pool)
	d.publish(c)
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

// QueueCommitAnnounce queues COMMIT, then the announcement of c in a
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
// write's own commit flushes the WAL before it returns (replica.go), as
// it must when a replica may serve reads. SendCommitAnnounced sends the
// batch.
func (d *DB) QueueCommitAnnounce(b *pgx.Batch, c Change) error {
	payload, err := announcement(c, d.name)
	if err != nil {
		return err
	}
	if d.read != nil {
		b.Queue(flushCommitSQL)
	}
	b.Queue(commitSQL)
	b.Queue(notifyAfterCommitSQL, ChangesChannel, payload)
	return nil
}

// notifyAfterCommitSQL announces a committed change (QueueCommitAnnounce).
const notifyAfterCommitSQL = `SELECT pg_notify($1, $2), set_config('synchronous_commit', 'off', true)`

// SendCommitAnnounced sends b, which QueueCommitAnnounce ended, on tx and
// returns the first error up to the commit. The write is committed
// whatever the announcement does after it, so an announcement that fails
// is sent once more on its own rather than failing the write.
func SendCommitAnnounced(ctx context.Context, tx pgx.Tx, b *pgx.Batch) error {
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

// announcement is c's payload on the channel, from the DB named from.
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

// TransactChange is Transact for a write that changes what readers see:
// fn returns the change, which is announced in the transaction and
// published to this process's hooks after the commit.
func (d *DB) TransactChange(ctx context.Context, fn func(pgx.Tx) (Change, error)) error {
	var c Change
	err := d.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var err error
		if c, err = fn(tx); err != nil {
			return err
		}
		if c.any() {
			return announce(ctx, tx, c, d.name, d.read != nil)
		}
		return nil
	})
	if err == nil && c.any() {
		d.PublishCommitted(ctx, c)
	}
	return err
}

// SiteChange is a write that changes lists and leaderboards only.
func SiteChange(fn func(pgx.Tx) error) func(pgx.Tx) (Change, error) {
	return func(tx pgx.Tx) (Change, error) { return Change{Site: true}, fn(tx) }
}
