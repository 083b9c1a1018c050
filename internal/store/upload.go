package store

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
)

// queueUpload queues on b, after the run's row went in (insert_run.sql),
// the statements of an upload of run r under id, each a plain statement:
// its own rows, then its filing in the browse index (bests.QueueIndexRun),
// in the lock order package bests writes down (its package comment), the
// one order every path that writes the index keeps; statements of one
// batch run one after another in the order queued. u is the upload's use
// of the bounds on the stored bests (bests.StartUpload), nil for
// none.
func queueUpload(b *pgx.Batch, id string, source []byte, r *run.Run, uploaded time.Time, u *bests.BoundedUpload) {
	queueRunRows(b, id, source, r)
	bests.QueueIndexRun(b, id, r, uploaded, u)
}

// queueRunRows queues on b the inserts of run r's own rows past its runs
// row, under id: its source, its decode cells, its prefill rows.
func queueRunRows(b *pgx.Batch, id string, source []byte, r *run.Run) {
	b.Queue(insertSourceSQL, id, source)
	queueInsertCells(b, id, r)
}

// insertSourceSQL stores a run's document byte for byte.
const insertSourceSQL = `INSERT INTO run_sources (run_id, body) VALUES ($1, $2)`
