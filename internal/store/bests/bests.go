// Package bests keeps the browse index and reads it: what lists,
// leaderboards, entity pages, search and histories read instead of
// scanning runs. It owns the tables derived from the stored runs
// (identities, the tables of bests, browse_groups and the run counts,
// history_cells, history_versions, history_setups, unpowered_runs; and
// plan_ladders, which best_cells' triggers keep), the
// browse columns of a runs row (BrowseColumns), the rules that keep them
// equal to what a rebuild from every run would leave, and the reads of
// lists of runs.
//
// It must not import package store, which stores the runs themselves and
// calls it, nor package accounts, which calls it when a run is hidden,
// claimed or deleted; it stands on package db alone.
//
// # Vocabulary
//
//   - A best is the best cell of a group at one point (context,
//     concurrency, metric and status): in best_cells per group (model,
//     hardware, engine, quantization, demo), in version_best_cells per
//     group and engine version, in submitter_best_cells per group and
//     proven submitter (bestTables). Better is a smaller sort value, then
//     the earlier upload, then the smaller run id (bestRow.better). The
//     history's best cells (history_cells) are kept per setup and engine
//     version by the same rule on total tok/s.
//   - An offer is a fresh run's cell put to a table of bests: it replaces
//     the stored best when it is better, and is left out when it is not
//     (offer_run_best_cells.sql and its kin). An upload offers its run's
//     cells (QueueIndexRun), a batch or a bulk load the best of its runs'
//     cells per key (FreshIndex); an offer never makes a best worse.
//   - A rebuild derives a group's bests again from every run of the group
//     (RebuildGroup), or every table from every run (RebuildAll): when a
//     run is hidden, deleted, claimed or derived again, and a best may get
//     worse.
//   - bestLock is the advisory lock that keeps rebuilds apart from offers:
//     whoever offers holds it shared, whoever rebuilds exclusively
//     (LockBest), taken before any other lock of the index.
//   - The epoch (best_epoch) counts the rebuilds: LockBest bumps it, so a
//     bound learned under one epoch holds while the epoch stays.
//   - A mark is an offer an upload leaves out before it probes the table,
//     because what its Bests learned of the stored bests (bestBounds)
//     says it cannot win under the epoch the upload read; the offer
//     statement honours marks only while best_epoch still equals it.
//   - The counts are runs per browse group and identity, kept as deltas
//     an upload appends and a fold adds up (browse_counts.go).
//
// # Lock order
//
// Uploads of runs that share identities lock the same rows, and two
// transactions that lock two rows in opposite orders deadlock (PostgreSQL
// aborts one: SQLSTATE 40P01), so every path that writes the browse index
// takes its locks in this order, leaving out the steps it has no part in;
// statements of one batch run one after another in the order queued. This
// is the one place the order is written down.
//
//  1. The runs rows inserted, a batch's by short id (only an upload of the
//     same document waits for one): package store's insert_run.sql. The
//     run's source, decode cells and prefill rows are rows under its new
//     id, which no other transaction can hold: insertSourceSQL,
//     insert_decode_cells.sql, insert_prefill_rows.sql (a batch copies
//     them).
//  2. bulkLock, for a batch (package store's InsertRuns).
//  3. identities rows, by (kind, slug): nameIdentitiesSQL (NameIdentities).
//  4. bestLock, shared: lockBestSharedSQL (QueueBestLockShared).
//  5. best_cells rows, then version_best_cells rows, then
//     submitter_best_cells rows, each by key: offer_run_best_cells.sql
//     and its kin (bestTables), or offer_best_cells.sql and its kin.
//     best_cells' triggers then renew the planner's ladders of the setups
//     the statement wrote (plan_ladders_renew, migration 0037), taking
//     an advisory lock per setup in the order of its hash, or the table
//     for more than 256 setups, before they read best_cells again. An
//     upload or a batch writes best_cells in one statement, so it takes
//     these locks at once, in order; a rebuild, which writes it in more
//     than one, holds bestLock exclusively, so nobody else offers.
//  6. new browse_groups rows, by key: count_run_groups.sql (count_groups.sql);
//     then new history_versions rows, by key, and the history_setups rows
//     of those new versions' setups, by key, in one statement that writes
//     the second from the rows the first returns: count_run_versions.sql
//     (count_versions.sql). An existing row is not locked; the runs go to
//     browse_count_deltas, which nobody locks: count_run_deltas.sql
//     (count_deltas.sql); the runs without power go to
//     unpowered_run_deltas, which nobody locks either: countUnpoweredSQL.
//  7. history_cells rows, by key: offer_run_history.sql (offer_history.sql).
//  8. foldLock, then browse_groups, identity_runs, engine_version_runs and
//     history_versions rows, each by key: foldCountsSQL, then
//     unpowered_runs rows by key: foldUnpoweredSQL, never in an upload
//     (browse_counts.go). A rebuild takes foldLock before it counts a
//     group's unpowered runs again (rebuildUnpowered).
//
// The sorted orders are ORDER BY in the statements: an insert, and ON
// CONFLICT, lock rows in the order the SELECT yields them. The best_epoch
// row is read by uploads, never locked by them; only holders of bestLock
// exclusive (LockBest) and whatever deletes rows of a table of bests
// update it (best_bounds.go). A transaction that rebuilds best cells
// (browse_rebuild.go) holds bestLock exclusively before it touches
// best_cells, browse_groups or an existing run, so no upload holds any of
// those rows meanwhile, and an upload waiting for bestLock holds only rows
// a rebuild never needs.
package bests

import (
	"embed"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Bests is the browse index on a database: its reads, its maintenance,
// and what this handle's uploads learned of the stored bests. It is safe
// for concurrent use.
type Bests struct {
	db     *db.DB
	bounds *bestBounds // what its uploads learned of the stored bests
}

// New is the browse index on d.
func New(d *db.DB) *Bests {
	return &Bests{db: d, bounds: newBestBounds(defaultBoundBytes)}
}

// StartUpload is an upload of one run through s that read epoch
// (best_epoch, in its insert_run.sql) before its offers: pass it to
// QueueIndexRun, and call its Committed once the upload committed. It and
// ForgetBounds are functions rather than methods so that package store's
// Store, which embeds *Bests for its reads, does not offer them to its
// callers.
func StartUpload(s *Bests, epoch int64) *BoundedUpload {
	return s.bounds.startUpload(epoch)
}

// ForgetBounds drops what the uploads through s learned of the stored
// bests, for when s may have lost touch with the database they came from
// (bestBounds.forget).
func ForgetBounds(s *Bests) { s.bounds.forget() }

// The index's longer statements are files of sql/, loaded by name
// (db.SQLFile says how the store keeps its SQL).

//go:embed sql/*.sql
var queryFiles embed.FS

// sqlFile is the statement in sql/name.sql.
func sqlFile(name string) string { return db.SQLFile(queryFiles, name) }
