// Package regressions keeps version_changes (migration 0030): the
// regressions and speedups between consecutive engine versions of every
// setup, derived by package regress from history_cells, and reads them
// for /regressions, its feed, the API, reports and histories.
//
// Whatever writes history_cells notes the setups it touched in
// version_changes_pending through the table's triggers, in the writer's
// own transaction; FoldVersionChanges derives the noted setups again. Lists read
// version_changes alone, a few rows by index however many runs there are.
//
// It stands on package db alone, as package bests does.
package regressions

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Regressions is version_changes on a database. It is safe for
// concurrent use.
type Regressions struct{ db *db.DB }

// New is version_changes on d.
func New(d *db.DB) *Regressions { return &Regressions{db: d} }

// foldLock keeps two folds apart (after package bests' locks, 0x5e3d_…).
const foldLock = 0x5e3d_0030

// foldChunk is the most setups one fold transaction derives.
const foldChunk = 200

// maxChangedRuns bounds the runs a fold names to the caches; past it the
// change is a reset.
const maxChangedRuns = 1000

// Setup is a model, hardware, engine and quantization, by slug.
type Setup struct {
	Hardware, Engine, Model, Quantization string
}

// takePendingSQL takes up to $1 noted setups, every note of each.
const takePendingSQL = `
WITH s AS (SELECT DISTINCT hardware_slug, engine_slug, model_slug, quantization_slug
           FROM version_changes_pending LIMIT $1)
DELETE FROM version_changes_pending p USING s
WHERE (p.hardware_slug, p.engine_slug, p.model_slug, p.quantization_slug) =
      (s.hardware_slug, s.engine_slug, s.model_slug, s.quantization_slug)
RETURNING p.hardware_slug, p.engine_slug, p.model_slug, p.quantization_slug`

// setupCellsSQL is a setup's history_cells rows a regression reads (demo
// runs left out): one range of the table's key.
const setupCellsSQL = `
SELECT engine_version, context, concurrency, total_tps, run_id, uploaded_at, model_base_slug
FROM history_cells
WHERE hardware_slug = $1 AND engine_slug = $2 AND model_slug = $3 AND quantization_slug = $4 AND NOT demo`

const deleteSetupSQL = `
DELETE FROM version_changes
WHERE hardware_slug = $1 AND engine_slug = $2 AND model_slug = $3 AND quantization_slug = $4
RETURNING old_run_id, new_run_id`

const insertChangeSQL = `
INSERT INTO version_changes (hardware_slug, engine_slug, model_slug, quantization_slug, model_base_slug,
    old_version, new_version, old_run_id, new_run_id, kind, percent, headline_context, headline_concurrency,
    cells, seen_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`

// FoldVersionChanges derives every noted setup's version changes again, a chunk of
// setups per transaction, and reports how many setups it derived. Each
// chunk announces the runs whose reports gain or lose a link, and that
// lists changed.
func (s *Regressions) FoldVersionChanges(ctx context.Context) (setups int, err error) {
	defer db.Wrap(&err, "FoldVersionChanges")
	for {
		n := 0
		err := s.db.TransactChange(ctx, func(tx pgx.Tx) (db.Change, error) {
			var err error
			var runs []string
			n, runs, err = foldChunkTx(ctx, tx)
			if err != nil || n == 0 {
				return db.Change{}, err
			}
			if len(runs) > maxChangedRuns {
				return db.Change{Site: true, Reset: true}, nil
			}
			return db.Change{Site: true, Runs: runs}, nil
		})
		if err != nil {
			return setups, err
		}
		setups += n
		if n < foldChunk {
			return setups, nil
		}
	}
}

// foldChunkTx derives one chunk of noted setups in tx: how many, and the
// runs named by the rows it removed or wrote.
func foldChunkTx(ctx context.Context, tx pgx.Tx) (int, []string, error) {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, foldLock); err != nil {
		return 0, nil, err
	}
	rows, _ := tx.Query(ctx, takePendingSQL, foldChunk)
	noted, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Setup])
	if err != nil {
		return 0, nil, fmt.Errorf("take pending: %w", err)
	}
	seen := map[Setup]bool{}
	var setups []Setup
	for _, st := range noted {
		if !seen[st] {
			seen[st] = true
			setups = append(setups, st)
		}
	}
	if len(setups) == 0 {
		return 0, nil, nil
	}
	points, bases, err := readPoints(ctx, tx, setups)
	if err != nil {
		return 0, nil, err
	}
	runs := map[string]bool{}
	b := &pgx.Batch{}
	for _, st := range setups {
		b.Queue(deleteSetupSQL, st.Hardware, st.Engine, st.Model, st.Quantization).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var a, c string
				if err := rows.Scan(&a, &c); err != nil {
					return err
				}
				runs[a], runs[c] = true, true
			}
			return rows.Err()
		})
		for _, c := range regress.Detect(points[st]) {
			cells, err := json.Marshal(c.Cells)
			if err != nil {
				return 0, nil, err
			}
			var hc, hn *int
			if c.HasHeadline {
				hc, hn = &c.Headline.Context, &c.Headline.Concurrency
			}
			b.Queue(insertChangeSQL, st.Hardware, st.Engine, st.Model, st.Quantization, bases[st],
				c.OldVersion, c.NewVersion, c.OldRun, c.NewRun, string(c.Kind), c.Percent, hc, hn, cells, c.SeenAt)
			runs[c.OldRun], runs[c.NewRun] = true, true
		}
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, nil, fmt.Errorf("write version changes: %w", err)
	}
	ids := make([]string, 0, len(runs))
	for id := range runs {
		ids = append(ids, id)
	}
	return len(setups), ids, nil
}

// readPoints reads the setups' history cells in one round trip.
func readPoints(ctx context.Context, tx pgx.Tx, setups []Setup) (map[Setup][]regress.Point, map[Setup]string, error) {
	points := make(map[Setup][]regress.Point, len(setups))
	bases := make(map[Setup]string, len(setups))
	b := &pgx.Batch{}
	for _, st := range setups {
		b.Queue(setupCellsSQL, st.Hardware, st.Engine, st.Model, st.Quantization).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var p regress.Point
				var base string
				if err := rows.Scan(&p.Version, &p.Context, &p.Concurrency, &p.TPS, &p.RunID, &p.UploadedAt, &base); err != nil {
					return err
				}
				p.UploadedAt = p.UploadedAt.UTC()
				points[st] = append(points[st], p)
				bases[st] = base
			}
			return rows.Err()
		})
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return nil, nil, fmt.Errorf("read history cells: %w", err)
	}
	return points, bases, nil
}

// KeepVersionChangesFolded folds every so often until ctx ends: what an upload noted
// shows on /regressions within that time.
func (s *Regressions) KeepVersionChangesFolded(ctx context.Context, every time.Duration, log *slog.Logger) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		if _, err := s.FoldVersionChanges(ctx); err != nil && ctx.Err() == nil {
			log.Error("folding version changes", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
