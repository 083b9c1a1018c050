// Package rivals finds, for a report's "what differs", the fastest other
// run of a run's hardware, model and quantization at a cell: among the
// runs the leaderboards rank (shown, not above the physical bound, not
// quick) and of the run's own kind (demo data beside demo data only).
//
// It stands on package db alone, as package bests does.
package rivals

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Rivals reads the fastest other runs on a database.
type Rivals struct{ db *db.DB }

// New is Rivals on d.
func New(d *db.DB) *Rivals { return &Rivals{db: d} }

// Cell is a point of the decode grid.
type Cell struct{ Context, Concurrency int }

// Rival is the fastest other run at a cell and its total tok/s there.
type Rival struct {
	Cell
	RunID    string
	TotalTPS float64
}

// fastestSQL is the fastest other run than $1 at cell $2 × $3 whose total
// tok/s has a meaning (valid or queued) among the runs of $1's hardware,
// model, quantization and kind: each engine's best is a row of best_cells
// (one range of its key), and when $1 holds its own engine's best, the
// runner-up of its browse group is read from the group's runs
// (runs_rival_idx, migration 0030) and their cell by key. Ties go to the
// earlier upload, then the smaller id, as the leaderboards break them. A
// run without a model or hardware slug has no rival: both unknown is no
// likeness.
const fastestSQL = `
WITH me AS (SELECT hardware_slug, model_slug, quantization_slug, engine_slug, demo FROM runs
            WHERE id = $1 AND hardware_slug <> '' AND model_slug <> '')
SELECT x.run_id, x.value FROM (
    SELECT b.run_id, b.value, b.uploaded_at FROM best_cells b, me
    WHERE b.context = $2 AND b.concurrency = $3 AND b.metric = 'total_tps' AND b.status IN ('valid', 'queued')
        AND b.model_slug = me.model_slug AND b.hardware_slug = me.hardware_slug
        AND b.quantization_slug = me.quantization_slug AND b.demo = me.demo AND b.run_id <> $1
    UNION ALL
    SELECT r.id, c.total_tps, r.uploaded_at FROM me
    JOIN runs r ON r.hardware_slug = me.hardware_slug AND r.model_slug = me.model_slug
        AND r.quantization_slug = me.quantization_slug AND r.engine_slug = me.engine_slug AND r.demo = me.demo
        AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick' AND r.id <> $1
    JOIN decode_cells c ON c.run_id = r.id AND c.context = $2 AND c.concurrency = $3
    WHERE c.status IN ('valid', 'queued') AND c.total_tps > 0
        AND EXISTS (SELECT FROM best_cells b WHERE b.run_id = $1 AND b.context = $2 AND b.concurrency = $3
                    AND b.metric = 'total_tps')
) x
ORDER BY x.value DESC, x.uploaded_at, x.run_id
LIMIT 1`

// FastestOthers returns, for each of cells, the fastest other run than id
// there, in cells' order; a cell no other run measured is left out. An
// unknown id has no rivals.
func (s *Rivals) FastestOthers(ctx context.Context, id string, cells []Cell) (out []Rival, err error) {
	defer db.Wrap(&err, "FastestOthers(%q)", id)
	if len(cells) == 0 {
		return nil, nil
	}
	err = s.db.ReadBatch(ctx, func(b *pgx.Batch) {
		for _, c := range cells {
			b.Queue(fastestSQL, id, c.Context, c.Concurrency)
		}
	}, func(br pgx.BatchResults) error {
		for _, c := range cells {
			r := Rival{Cell: c}
			err := br.QueryRow().Scan(&r.RunID, &r.TotalTPS)
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}
