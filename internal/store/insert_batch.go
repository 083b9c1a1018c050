package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// NewRun is one run for InsertRuns: the derived run, its dedupe key and its
// source document, as InsertRun takes them.
type NewRun struct {
	Run       *run.Run
	DedupeKey string
	Source    []byte
}

// Inserted is what InsertRuns did with one NewRun: the run's id, and
// whether it was stored (false: a run with its key was stored already).
type Inserted struct {
	ID      string
	Created bool
}

// bulkLock is the advisory lock InsertRuns holds while it indexes a batch:
// a batch of demo runs offers cells to hundreds of best_cells rows that the
// next batch shares, so batches take turns there rather than queue on each
// other row by row (rows and cells of different batches still go in in
// parallel). Its place in the lock order: package bests, step 2.
const bulkLock = 0x5e3d_b01c

// InsertRuns stores runs in one transaction, leaving exactly the rows that
// InsertRun called on each in order would leave (runs, sources, cells,
// identities, best_cells, browse_groups), in a handful of round trips
// instead of several per run and one commit instead of one per run: it is
// the bulk path of `speedmatrix demo`. On success it sets ID, Revision and
// UploadedAt of every run it created, as InsertRun does.
func (s *Store) InsertRuns(ctx context.Context, runs []NewRun) (_ []Inserted, err error) {
	defer db.Wrap(&err, "InsertRuns(%d runs)", len(runs))
	uploaded := make([]time.Time, len(runs))
	for i, nr := range runs {
		if nr.DedupeKey == "" {
			return nil, fmt.Errorf("run %d: empty dedupe key", i)
		}
		uploaded[i] = nr.Run.UploadedAt
		if uploaded[i].IsZero() {
			uploaded[i] = time.Now()
		}
		uploaded[i] = uploaded[i].UTC().Truncate(time.Microsecond)
	}
	out := make([]Inserted, len(runs))
	err = s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		if err := insertRunRows(ctx, tx, runs, uploaded, out); err != nil {
			return err
		}
		if err := copyBatch(ctx, tx, runs, out); err != nil {
			return err
		}
		// The browse index last, once every run's cells are written, one
		// batch at a time (bulkLock, held to the commit), in lock order
		// (package bests).
		x := bests.NewFreshIndex()
		var fresh []*run.Run
		for i, nr := range runs {
			if out[i].Created {
				x.Add(out[i].ID, nr.Run, uploaded[i])
				fresh = append(fresh, nr.Run)
			}
		}
		if len(fresh) == 0 {
			return nil
		}
		b := &pgx.Batch{}
		b.Queue(`SELECT pg_advisory_xact_lock($1)`, bulkLock)
		sql, args := bests.NameIdentities(fresh)
		b.Queue(sql, args...)
		bests.QueueBestLockShared(b)
		x.Queue(b)
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("browse index: %w", err)
		}
		return nil
	}))
	if err != nil {
		return nil, err
	}
	for i, nr := range runs {
		if out[i].Created {
			nr.Run.ID, nr.Run.UploadedAt, nr.Run.Revision = out[i].ID, uploaded[i], 1
		}
	}
	return out, nil
}

// insertRunRows inserts the runs rows under their short ids in one
// batch; a row that did not go in (its key is stored, maybe
// earlier in this batch, or another key holds the short id) takes
// insertRunRow's path, which settles it as InsertRun would.
//
// The rows go in by short id, so that two batches holding some of the same
// documents wait for each other's rows in one order rather than deadlock.
// The sort is stable: of two runs with one short id (the same key, or keys
// whose short ids collide) the first in the batch still goes in first.
func insertRunRows(ctx context.Context, tx pgx.Tx, runs []NewRun, uploaded []time.Time, out []Inserted) error {
	order := make([]int, len(runs))
	shorts := make([]string, len(runs))
	for i, nr := range runs {
		order[i] = i
		shorts[i], _ = runIDs(nr.DedupeKey)
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(shorts[a], shorts[b]) })
	b := &pgx.Batch{}
	for _, i := range order {
		sql, args := insertRun(shorts[i], runs[i].DedupeKey, uploaded[i], runs[i].Run)
		b.Queue(sql, args...)
	}
	br := tx.SendBatch(ctx, b)
	var retry []int
	for _, i := range order {
		tag, err := br.Exec()
		if err != nil {
			_ = br.Close()
			return fmt.Errorf("run %q: %w", runs[i].DedupeKey, err)
		}
		if tag.RowsAffected() == 1 {
			out[i] = Inserted{ID: shorts[i], Created: true}
		} else {
			retry = append(retry, i)
		}
	}
	if err := br.Close(); err != nil {
		return err
	}
	for _, i := range retry {
		id, created, _, err := insertRunRow(ctx, tx, runs[i].Run, runs[i].DedupeKey, uploaded[i])
		if err != nil {
			return fmt.Errorf("run %q: %w", runs[i].DedupeKey, err)
		}
		out[i] = Inserted{ID: id, Created: created}
	}
	return nil
}

// copyBatch writes the sources, decode cells, prefill rows and run telemetry of the
// created runs: one COPY per table for the whole batch.
func copyBatch(ctx context.Context, tx pgx.Tx, runs []NewRun, out []Inserted) error {
	var sources, decode, prefill, telemetry [][]any
	for i, nr := range runs {
		if !out[i].Created {
			continue
		}
		id, src := out[i].ID, nr.Source
		if src == nil {
			src = []byte{} // body is NOT NULL
		}
		sources = append(sources, []any{id, src})
		for j := range nr.Run.Decode {
			decode = append(decode, decodeRow(id, &nr.Run.Decode[j]))
		}
		for j := range nr.Run.Prefill {
			prefill = append(prefill, prefillRow(id, &nr.Run.Prefill[j]))
		}
		if body := runTelemetryJSON(nr.Run); body != nil {
			telemetry = append(telemetry, []any{id, body})
		}
	}
	for _, c := range []struct {
		table   string
		columns []string
		rows    [][]any
	}{
		{"run_sources", []string{"run_id", "body"}, sources},
		{"decode_cells", decodeColumns, decode},
		{"prefill_rows", prefillColumns, prefill},
		{"run_telemetry", []string{"run_id", "body"}, telemetry},
	} {
		if len(c.rows) == 0 {
			continue
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.columns, pgx.CopyFromRows(c.rows)); err != nil {
			return fmt.Errorf("%s: %w", c.table, err)
		}
	}
	return nil
}
