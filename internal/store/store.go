// Package store keeps runs in PostgreSQL: the derived run, its cells and
// prefill rows, and the uploaded document byte for byte; it uploads,
// derives again, backs up and restores them, and migrates the schema. It
// is the door callers use: Store offers the methods of its parts as its
// own, and their names (types, errors, constants) are found here too.
//
// Its parts sit below it, and the arrows go down only:
//
//	store        runs, uploads, backups, migrations (this package)
//	accounts     people, organisations, names, moderation, drafts
//	bests        the browse index: bests, offers, epochs, counts, history
//	regressions  changes between engine versions, kept from history_cells
//	rivals       a run's fastest other run of its setup at a cell
//	db           the handle, transactions, change announcements, sql/ files
//
// A part imports only the parts below it (accounts imports bests and db;
// bests, regressions and rivals import db; db none of them) and none imports package store
// (TestPartsImportDown holds them to it); no package outside the store
// imports a part but its tests. Package store itself must not import its callers
// (web, internal/backup, the commands) nor storetest, which only tests
// import. The store is the only package that writes SQL; every query
// lives next to the method that runs it, or, when it is longer than a few
// lines, in a file of its package's sql/ folder loaded by name
// (db.SQLFile).
package store

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/speedmatrix/speedmatrix/internal/store/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
	"github.com/speedmatrix/speedmatrix/internal/store/regressions"
	"github.com/speedmatrix/speedmatrix/internal/store/rivals"
)

// ErrNotFound is returned, wrapped, when the asked-for run does not exist.
// Handlers turn it into a 404.
var ErrNotFound = db.ErrNotFound

// Store is a handle on the database. It is safe for concurrent use. The
// methods of the browse index (package bests), of the accounts (package
// accounts), of the version changes (package regressions) and of a
// run's rivals (package rivals) are its own, promoted.
type Store struct {
	*bests.Bests
	*accounts.Accounts
	*regressions.Regressions
	*rivals.Rivals
	db *db.DB
}

// Open connects to the database at url (postgres://…). It does not migrate:
// the server runs Migrate first, and refuses to start if that fails.
func Open(ctx context.Context, url string) (*Store, error) {
	return OpenWithReplica(ctx, url, "")
}

// OpenWithReplica is Open with the public pages' reads going to the
// streaming replica at readURL when it has replayed what they need
// (db/replica.go); an empty readURL is Open. The replica need not answer
// yet: until it does, reads go to the primary.
func OpenWithReplica(ctx context.Context, url, readURL string) (_ *Store, err error) {
	defer db.Wrap(&err, "store.Open")
	d, err := db.Open(ctx, url, readURL)
	if err != nil {
		return nil, err
	}
	return newStore(d), nil
}

// newStore is the Store on d.
func newStore(d *db.DB) *Store {
	return &Store{Bests: bests.New(d), Accounts: accounts.New(d), Regressions: regressions.New(d),
		Rivals: rivals.New(d), db: d}
}

// Close waits for queries in flight and closes every connection.
func (s *Store) Close() { s.db.Close() }

// Ping checks that the database answers, for health checks.
func (s *Store) Ping(ctx context.Context) error { return s.db.Ping(ctx) }

// PoolStat reports the connection pool's statistics, for metrics.
func (s *Store) PoolStat() *pgxpool.Stat { return s.db.PoolStat() }

// ReadStats reports the counts of public reads, for metrics.
func (s *Store) ReadStats() ReadStats { return s.db.ReadStats() }

// HasReplica reports whether reads may go to a replica.
func (s *Store) HasReplica() bool { return s.db.HasReplica() }

// OnChange registers f to be told of every change: synchronously after
// this process's own commits (before the writing method returns, so the
// instance that answered never serves stale afterwards) and, while Listen
// runs, of every change announced on ChangesChannel.
func (s *Store) OnChange(f func(Change)) { s.db.OnChange(f) }

// Listen receives the changes other instances (and this one) announce on
// ChangesChannel and publishes them to the OnChange hooks, until ctx ends;
// each time its connection is lost, and once it listens anew, it publishes
// a reset (db.DB.Listen), and the uploads' bounds on the stored bests are
// forgotten as the caches are. notified, when not nil, is called once per
// notification received (for metrics).
func (s *Store) Listen(ctx context.Context, notified func()) {
	s.db.Listen(ctx, notified, func() { bests.ForgetBounds(s.Bests) })
}

// Change says what a committed write affected (db.Change).
type Change = db.Change

// ChangesChannel is the one PostgreSQL NOTIFY channel every write path
// announces its change on (db.ChangesChannel).
const ChangesChannel = db.ChangesChannel

// ReadStats count the public reads by where they went (db.ReadStats).
type ReadStats = db.ReadStats

// OnPrimary returns a context whose reads all go to the primary: account
// pages, forms, and reads whose answer leads to a write.
func OnPrimary(ctx context.Context) context.Context { return db.OnPrimary(ctx) }

// IsUnavailable reports whether err means the database cannot be reached
// just now (db.IsUnavailable): the web layer answers 503.
func IsUnavailable(err error) bool { return db.IsUnavailable(err) }

// IsDiskFull reports whether err is PostgreSQL saying its disk is full
// (db.IsDiskFull): nothing was stored.
func IsDiskFull(err error) bool { return db.IsDiskFull(err) }
