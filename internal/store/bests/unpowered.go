package bests

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Runs without power (migration 0034). A tokens-per-joule board ranks only
// cells with a measured board power and says how many runs it left out
// for want of one: the runs that rank at its point by total tok/s (a valid
// cell with a positive total, of a run shown, not quick, not flagged) but
// have no cell with a positive power there. Counting them from the runs
// would read every matching run's cell at the point (a million at 0 × 1),
// so unpowered_runs keeps the count per point and setup (the columns a
// board filters on: browse group, engine version, submitter), kept as the
// run counts are (browse_counts.go): a fresh run appends its points to
// unpowered_run_deltas, which no one waits on, the fold adds them up, and
// a change of a run counts its browse group again from its runs
// (rebuildUnpowered), as the tables of bests are rebuilt.

// unpoweredKey is one row of unpowered_runs: a point of a setup.
type unpoweredKey struct {
	model, hardware, engine, quantization string
	demo                                  bool
	context, concurrency                  int
	version, submitter, base              string
}

// unpoweredPoints are the grid points where fresh run r ranks by total
// tok/s but not by tokens per joule: unpoweredRunPoints' rule in Go (a
// fresh run is not hidden).
func unpoweredPoints(r *run.Run) []GridPoint {
	if r.Profile == "quick" || run.Unrankable(r.Flags) {
		return nil
	}
	powered := map[GridPoint]bool{} // ranked points, true once a cell there has power
	var order []GridPoint
	for i := range r.Decode {
		c := &r.Decode[i]
		if c.Status != run.Valid || c.TotalTPS == nil || !(*c.TotalTPS > 0) {
			continue
		}
		p := GridPoint{Context: c.Context, Concurrency: c.Concurrency}
		if _, seen := powered[p]; !seen {
			order = append(order, p)
		}
		powered[p] = powered[p] || (c.PowerW != nil && *c.PowerW > 0)
	}
	return slices.DeleteFunc(order, func(p GridPoint) bool { return powered[p] })
}

// addUnpowered counts fresh run r's unpowered points in counts.
func addUnpowered(counts map[unpoweredKey]int64, r *run.Run) {
	ids := runIdentities(r) // in identityKinds' order
	for _, p := range unpoweredPoints(r) {
		counts[unpoweredKey{ids[2].Slug, ids[0].Slug, ids[1].Slug, ids[5].Slug, r.Demo, p.Context, p.Concurrency,
			r.Engine.Version, ids[4].Slug, ids[3].Slug}]++
	}
}

// countUnpoweredSQL appends counts to unpowered_run_deltas, as arrays by
// column in the table's order.
const countUnpoweredSQL = `
INSERT INTO unpowered_run_deltas (model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug, model_base_slug, runs)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bool[], $6::int[], $7::int[],
    $8::text[], $9::text[], $10::text[], $11::bigint[])`

// queueCountUnpowered queues on b the append of counts, when there are
// any: step 6 of the lock order (a table nobody locks).
func queueCountUnpowered(b *pgx.Batch, counts map[unpoweredKey]int64) {
	if len(counts) == 0 {
		return
	}
	var cols struct {
		model, hardware, engine, quant, version, submitter, base []string
		demo                                                     []bool
		context, concurrency                                     []int
		runs                                                     []int64
	}
	for k, n := range counts {
		cols.model, cols.hardware, cols.engine = append(cols.model, k.model), append(cols.hardware, k.hardware), append(cols.engine, k.engine)
		cols.quant, cols.demo = append(cols.quant, k.quantization), append(cols.demo, k.demo)
		cols.context, cols.concurrency = append(cols.context, k.context), append(cols.concurrency, k.concurrency)
		cols.version, cols.submitter, cols.base = append(cols.version, k.version), append(cols.submitter, k.submitter), append(cols.base, k.base)
		cols.runs = append(cols.runs, n)
	}
	b.Queue(countUnpoweredSQL, cols.model, cols.hardware, cols.engine, cols.quant, cols.demo, cols.context, cols.concurrency,
		cols.version, cols.submitter, cols.base, cols.runs)
}

// foldUnpoweredSQL moves every delta its snapshot sees into
// unpowered_runs, by key: part of the fold (foldCounts), under foldLock.
const foldUnpoweredSQL = `
WITH d AS (DELETE FROM unpowered_run_deltas RETURNING *)
INSERT INTO unpowered_runs AS u (model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug, model_base_slug, runs)
SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug, min(model_base_slug), sum(runs)
FROM d
GROUP BY model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency, engine_version, submitter_slug
ORDER BY model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency, engine_version, submitter_slug
ON CONFLICT (model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency, engine_version, submitter_slug)
    DO UPDATE SET runs = u.runs + excluded.runs`

// unpoweredRowsOf and unpoweredRowsEnd enclose a condition on the stored
// runs r ("" for all of them, else starting with AND): between them, the
// rows of unpowered_runs counted from those runs, each run at the points
// where it ranks by total tok/s, less those where a cell has a positive
// power (unpoweredPoints' rule). The condition is the inner query's, so
// it picks the runs before their cells are read.
const (
	unpoweredRowsOf = `
SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug, min(model_base_slug), count(*)
FROM (SELECT r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo, c.context, c.concurrency,
        r.engine_version, r.submitter_slug, r.model_base_slug
    FROM runs r
    JOIN decode_cells c ON c.run_id = r.id
    WHERE c.status = 'valid' AND c.total_tps > 0 AND NOT r.hidden AND r.profile <> 'quick' AND NOT r.above_bound`
	unpoweredRowsEnd = `
    GROUP BY r.id, c.context, c.concurrency
    HAVING NOT bool_or(coalesce((c.telemetry->>'power_w')::float8 > 0, false))) AS x
GROUP BY model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency, engine_version, submitter_slug
ORDER BY model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency, engine_version, submitter_slug`
)

const insertUnpowered = `
INSERT INTO unpowered_runs (model_slug, hardware_slug, engine_slug, quantization_slug, demo, context, concurrency,
    engine_version, submitter_slug, model_base_slug, runs)`

// The statements of a group's count (rebuildUnpowered), run $1's group:
// its deltas and rows go, and its rows are counted again from its runs.
const (
	unpoweredGroupOf          = `(SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo FROM runs WHERE id = $1)`
	deleteGroupUnpoweredDelta = `DELETE FROM unpowered_run_deltas
WHERE (model_slug, hardware_slug, engine_slug, quantization_slug, demo) = ` + unpoweredGroupOf
	deleteGroupUnpowered = `DELETE FROM unpowered_runs
WHERE (model_slug, hardware_slug, engine_slug, quantization_slug, demo) = ` + unpoweredGroupOf
	insertGroupUnpowered = insertUnpowered + unpoweredRowsOf + `
        AND (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo) = ` + unpoweredGroupOf + unpoweredRowsEnd
	insertAllUnpowered = insertUnpowered + unpoweredRowsOf + unpoweredRowsEnd
)

// rebuildUnpowered counts the unpowered runs of run id's browse group
// again from its runs, after one of them changed (hidden, shown, derived
// again, claimed). It takes foldLock, after bestLock (the lock order), so
// no fold moves the group's deltas meanwhile; the caller holds LockBest,
// so every upload's deltas are committed, and counted again here.
func rebuildUnpowered(ctx context.Context, tx pgx.Tx, id string) error {
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1)`, foldLock)
	b.Queue(deleteGroupUnpoweredDelta, id)
	b.Queue(deleteGroupUnpowered, id)
	b.Queue(insertGroupUnpowered, id)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("count unpowered runs: %w", err)
	}
	return nil
}

// rebuildAllUnpowered counts every unpowered run again: RebuildAll's.
// The caller holds foldLock (recountAll).
func rebuildAllUnpowered(ctx context.Context, tx pgx.Tx) error {
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM unpowered_run_deltas`)
	b.Queue(`DELETE FROM unpowered_runs`)
	b.Queue(insertAllUnpowered)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("count unpowered runs: %w", err)
	}
	return nil
}

// unpoweredFrom is the folded counts and the deltas not folded yet, as
// one relation b of their columns: a reader adds both, in one statement,
// so it sees every committed upload exactly once.
const unpoweredFrom = `(SELECT model_slug, model_base_slug, hardware_slug, engine_slug, quantization_slug, engine_version,
        submitter_slug, context, concurrency, runs FROM unpowered_runs
    UNION ALL SELECT model_slug, model_base_slug, hardware_slug, engine_slug, quantization_slug, engine_version,
        submitter_slug, context, concurrency, runs FROM unpowered_run_deltas) AS b`

// unpoweredCountSQL adds up unpoweredFrom's rows that its WHERE clause
// (Unpowered's) picks.
const unpoweredCountSQL = `SELECT coalesce(sum(b.runs), 0)::bigint FROM ` + unpoweredFrom

// Unpowered counts the runs lq's board under MetricTPJ leaves out for
// want of a measured power: those that rank at its point and filters by
// total tok/s but have no cell with a board power there. Runs left out
// for another reason (above the bound, when the board includes such
// runs) are not among them. It reads the point's rows of unpowered_runs,
// a few per setup however many runs there are.
func (s *Bests) Unpowered(ctx context.Context, lq LeaderQuery) (_ int, err error) {
	defer db.Wrap(&err, "Unpowered(%+v)", lq)
	var q query
	q.add("b.context = ?", lq.Context)
	q.add("b.concurrency = ?", lq.Concurrency)
	if err := s.filter(ctx, &q, lq.Filter, "b", false); err != nil {
		return 0, err
	}
	var n int
	err = s.db.Public().QueryRow(ctx, unpoweredCountSQL+q.sql(), q.args...).Scan(&n)
	return n, err
}
