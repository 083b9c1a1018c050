package store

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// queueUpload queues on b, after the run's row went in (insert_run.sql),
// the statements of an upload of run r under id, each a plain statement,
// in the order below: the lock order. Uploads of runs that share
// identities lock the same rows, and two transactions that lock two rows
// in opposite orders deadlock (PostgreSQL aborts one: SQLSTATE 40P01), so
// every path that writes the browse index takes its locks in this order,
// leaving out the steps it has no part in; statements of one batch run one
// after another in the order queued.
//
//  1. The runs rows inserted, a batch's by short id (only an upload of the
//     same document waits for one): insert_run.sql. The run's source,
//     decode cells and prefill rows are rows under its new id, which no
//     other transaction can hold: insertSourceSQL, insert_decode_cells.sql,
//     insert_prefill_rows.sql (a batch copies them).
//  2. bulkLock, for a batch (InsertRuns).
//  3. identities rows, by (kind, slug): nameIdentitiesSQL.
//  4. bestLock, shared: lockBestSharedSQL.
//  5. best_cells rows, then version_best_cells rows, then
//     submitter_best_cells rows, each by key: offer_run_best_cells.sql
//     and its kin (bestTables), or offer_best_cells.sql and its kin.
//  6. new browse_groups rows, by key: count_run_groups.sql (count_groups.sql);
//     then new history_versions rows, by key, and the history_setups rows
//     of those new versions' setups, by key, in one statement that writes
//     the second from the rows the first returns: count_run_versions.sql
//     (count_versions.sql). An existing row is not locked; the runs go to
//     browse_count_deltas, which nobody locks: count_run_deltas.sql
//     (count_deltas.sql).
//  7. history_cells rows, by key: offer_run_history.sql (offer_history.sql).
//  8. foldLock, then browse_groups, identity_runs, engine_version_runs and
//     history_versions rows, each by key: foldCountsSQL, never in an
//     upload (browse_counts.go).
//
// The sorted orders are ORDER BY in the statements: an insert, and ON
// CONFLICT, lock rows in the order the SELECT yields them. The best_epoch
// row is read by uploads, never locked by them; only holders of bestLock
// exclusive (lockBest) and whatever deletes rows of a table of bests
// update it (best_bounds.go). A transaction that rebuilds best cells
// (browse_rebuild.go) holds bestLock exclusively before it touches
// best_cells, browse_groups or an existing run, so no upload holds any of
// those rows meanwhile, and an upload waiting for bestLock holds only rows
// a rebuild never needs.
func queueUpload(b *pgx.Batch, id string, source []byte, r *run.Run, uploaded time.Time, u *boundedUpload) {
	queueRunRows(b, id, source, r)
	queueIndexRun(b, id, r, uploaded, u)
}

// queueRunRows queues on b the inserts of run r's own rows past its runs
// row, under id: its source, its decode cells, its prefill rows.
func queueRunRows(b *pgx.Batch, id string, source []byte, r *run.Run) {
	b.Queue(insertSourceSQL, id, source)
	queueInsertCells(b, id, r)
}

// insertSourceSQL stores a run's document byte for byte.
const insertSourceSQL = `INSERT INTO run_sources (run_id, body) VALUES ($1, $2)`
