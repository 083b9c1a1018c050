package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// runIdentities are the catalog identities of a run, in the order of
// setIdentitiesSQL's parameters $2…$7.
func runIdentities(r *run.Run) (hw, engine, model, base, submitter, quant catalog.Identity) {
	model, base = catalog.Model(r.Model.ID)
	q := catalog.Identity{Slug: catalog.Slugify(r.Engine.Quantization), Name: r.Engine.Quantization}
	return catalog.Hardware(r.Hardware), catalog.Engine(r.Engine.Name), model, base, catalog.Submitter(r.Submitter), q
}

// runNumbersSet recomputes the headline numbers of runs row r from its
// stored cells: best_single_tps, the valid cell at concurrency 1 and the
// smallest context; best_peak_tps, the highest valid total tok/s.
const runNumbersSet = `
    best_peak_tps = (SELECT max(c.total_tps) FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid'),
    best_single_tps = (SELECT c.total_tps FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid' AND c.concurrency = 1
        ORDER BY c.context LIMIT 1)`

// setIdentitiesSQL stores a run's slugs and recomputes its headline numbers
// from its stored cells.
const setIdentitiesSQL = `
UPDATE runs r SET
    hardware_slug = $2, engine_slug = $3, model_slug = $4, model_base_slug = $5,
    submitter_slug = $6, quantization_slug = $7, catalog_version = $8,` + runNumbersSet + `
WHERE r.id = $1`

// nameIdentitySQL records the display name of a slug the first time it is seen.
const nameIdentitySQL = `
INSERT INTO identities (kind, slug, name) VALUES ($1, $2, $3)
ON CONFLICT (kind, slug) DO NOTHING`

// bestCellsSelect lists a run's (or a group's) rankable cells as
// best_cells rows: one per valid or queued cell and metric that has a
// positive value.
const bestCellsSelect = `
SELECT c.context, c.concurrency, m.metric, c.status,
    r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo,
    CASE WHEN m.metric = 'ttft_ms' THEN m.v ELSE -m.v END AS sort_value, m.v, r.id, r.uploaded_at
FROM decode_cells c
JOIN runs r ON r.id = c.run_id
CROSS JOIN LATERAL (VALUES ('total_tps', c.total_tps), ('per_request_tps', c.per_request_tps),
    ('ttft_ms', c.ttft_ms)) AS m (metric, v)
WHERE c.status IN ('valid', 'queued') AND m.v > 0
    -- Hidden runs and lil-bench quick runs never rank (accounts, issue 4).
    AND NOT r.hidden AND r.profile <> 'quick'`

const bestCellsColumns = `(context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at)`

const bestCellsKey = `context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo`

// offerBestSQL offers every cell of run $1 to best_cells: a cell takes a
// group's place when it is better (smaller sort_value, then earlier upload,
// then smaller id). The upsert locks the row it replaces, so concurrent
// uploads to one group settle on the best of them.
const offerBestSQL = `
INSERT INTO best_cells AS b ` + bestCellsColumns + bestCellsSelect + ` AND c.run_id = $1
ON CONFLICT (` + bestCellsKey + `) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)`

// countGroupSQL counts run $1 in its browse group.
const countGroupSQL = `
INSERT INTO browse_groups AS g (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, 1
FROM runs WHERE id = $1
ON CONFLICT (model_slug, hardware_slug, engine_slug, engine_version, quantization_slug) DO UPDATE SET runs = g.runs + 1`

// groupOfRun matches the browse_groups row g of run $1.
const groupOfRun = `(g.model_slug, g.hardware_slug, g.engine_slug, g.engine_version, g.quantization_slug) =
    (SELECT model_slug, hardware_slug, engine_slug, engine_version, quantization_slug FROM runs WHERE id = $1)`

// uncountGroup takes run id out of its browse group's count (it was hidden
// or is being deleted), and drops the group when no run is left in it, so
// entity pages stop linking to it.
func uncountGroup(ctx context.Context, tx pgx.Tx, id string) error {
	if _, err := tx.Exec(ctx, `UPDATE browse_groups g SET runs = g.runs - 1 WHERE `+groupOfRun, id); err != nil {
		return fmt.Errorf("uncount group: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM browse_groups g WHERE g.runs <= 0 AND `+groupOfRun, id); err != nil {
		return fmt.Errorf("uncount group: %w", err)
	}
	return nil
}

// indexRun files a freshly inserted run (row and cells already written in
// tx) for browsing: its identities and numbers, the names of its slugs, and
// its cells offered to the leaderboard. One round trip.
// A fresh run also counts in its browse group; a run filed again (new
// rules, new catalogue) does not.
func indexRun(ctx context.Context, tx pgx.Tx, id string, r *run.Run, fresh bool) error {
	b := &pgx.Batch{}
	queueIndex(b, id, r, fresh)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	return nil
}

// queueIndex queues indexRun's statements for run id on b (InsertRuns has
// set-based forms of them: insert_batch_index.go).
func queueIndex(b *pgx.Batch, id string, r *run.Run, fresh bool) {
	hw, engine, model, base, submitter, quant := runIdentities(r)
	b.Queue(setIdentitiesSQL, id, hw.Slug, engine.Slug, model.Slug, base.Slug, submitter.Slug, quant.Slug, catalog.Version)
	for kind, ident := range map[string]catalog.Identity{"hardware": hw, "engine": engine, "model": model,
		"model_base": base, "submitter": submitter, "quantization": quant} {
		if ident.Slug != "" {
			b.Queue(nameIdentitySQL, kind, ident.Slug, ident.Name)
		}
	}
	b.Queue(offerBestSQL, id)
	if fresh {
		b.Queue(countGroupSQL, id)
	}
}

// reindexRun recomputes a stored run's numbers and its group's best cells
// after its cells were replaced (new status rules): the run may have lost
// a best it held, so the group is rebuilt from its runs' cells. Its slugs
// and their names stay as stored: its facts did not change, and Migrate
// brought every run to the current catalog before anything derives again.
func reindexRun(ctx context.Context, tx pgx.Tx, id string) error {
	if _, err := tx.Exec(ctx, `UPDATE runs r SET`+runNumbersSet+` WHERE r.id = $1`, id); err != nil {
		return fmt.Errorf("run numbers: %w", err)
	}
	return RebuildGroup(ctx, tx, id)
}

// RebuildGroup recomputes best_cells for the group of run id from every run
// of that group: after a run's cells change, or a run leaves the lists.
func RebuildGroup(ctx context.Context, tx pgx.Tx, id string) error {
	const group = `(model_slug, hardware_slug, engine_slug, quantization_slug, demo) =
    (SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo FROM runs WHERE id = $1)`
	if _, err := tx.Exec(ctx, `DELETE FROM best_cells WHERE `+group, id); err != nil {
		return fmt.Errorf("rebuild group: %w", err)
	}
	_, err := tx.Exec(ctx, `INSERT INTO best_cells `+bestCellsColumns+`
SELECT DISTINCT ON (`+bestCellsKey+`) * FROM (`+bestCellsSelect+`
    AND (r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo) =
        (SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo FROM runs WHERE id = $1)) AS x
ORDER BY `+bestCellsKey+`, sort_value, uploaded_at, id`, id)
	if err != nil {
		return fmt.Errorf("rebuild group: %w", err)
	}
	return nil
}

// rebuildAllBest recomputes best_cells and browse_groups from every run.
func rebuildAllBest(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `DELETE FROM best_cells`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM browse_groups`); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `
INSERT INTO browse_groups (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, count(*)
FROM runs WHERE NOT hidden GROUP BY model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO best_cells `+bestCellsColumns+`
SELECT DISTINCT ON (`+bestCellsKey+`) * FROM (`+bestCellsSelect+`) AS x
ORDER BY `+bestCellsKey+`, sort_value, uploaded_at, id`)
	return err
}
