package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The browse index is what lists, the leaderboard and entity pages read
// instead of scanning runs: each run's identity slugs and headline
// numbers, the names of the slugs (identities), the best cell per group
// (best_cells) and the runs per identity combination (browse_groups).
// A fresh run enters it through indexNewRuns, alone (InsertRun) or in a
// batch (InsertRuns): the same statements, set-based, either way.
//
// Lock order. Uploads of runs that share identities lock the same rows, and
// two transactions that lock two rows in opposite orders deadlock (PostgreSQL
// aborts one: SQLSTATE 40P01). So an upload takes its locks in one order:
//
//  1. the runs rows it inserts, a batch by short id (only an upload of the
//     same document waits for one);
//  2. bulkLock, for a batch;
//  3. identities rows, by (kind, slug): nameIdentitiesSQL;
//  4. bestLock, shared;
//  5. best_cells rows, by key: offerBestSQL;
//  6. browse_groups rows, by key: countGroupsSQL.
//
// The sorted orders are ORDER BY in the statements: an insert, and ON
// CONFLICT, lock rows in the order the SELECT yields them. A transaction
// that rebuilds best cells (browse_rebuild.go) holds bestLock exclusively
// before it touches best_cells, browse_groups or an existing run, so no
// upload holds any of those rows meanwhile, and an upload waiting for
// bestLock holds only rows a rebuild never needs.

// identityKinds names a run's identities as the identities table does, in
// the order runIdentities returns them and setIdentitiesSQL takes their
// slugs ($2…$7).
var identityKinds = [...]string{KindHardware, KindEngine, KindModel, KindModelBase, KindSubmitter, KindQuantization}

// runIdentities are the catalog identities of a run, in identityKinds' order.
func runIdentities(r *run.Run) [len(identityKinds)]catalog.Identity {
	model, base := catalog.Model(r.Model.ID)
	quant := catalog.Identity{Slug: catalog.Slugify(r.Engine.Quantization), Name: r.Engine.Quantization}
	return [...]catalog.Identity{catalog.Hardware(r.Hardware), catalog.Engine(r.Engine.Name), model, base,
		catalog.Submitter(r.Submitter), quant}
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

// setIdentitiesSQL stores the slugs of runs $1 ($2…$7, in identityKinds'
// order) and the catalog version they were computed with, and their
// numbers.
const setIdentitiesSQL = `
UPDATE runs r SET
    hardware_slug = v.hw, engine_slug = v.engine, model_slug = v.model, model_base_slug = v.base,
    submitter_slug = v.submitter, quantization_slug = v.quant, catalog_version = $8,` + runNumbersSet + `
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
    AS v (id, hw, engine, model, base, submitter, quant)
WHERE r.id = v.id`

// nameIdentitiesSQL records the display name of every (kind, slug, name)
// not named yet: the first spelling seen names a slug.
const nameIdentitiesSQL = `
INSERT INTO identities (kind, slug, name)
SELECT DISTINCT ON (kind, slug) kind, slug, name
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS v (kind, slug, name, n)
ORDER BY kind, slug, n
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
    -- Hidden runs and lil-bench quick runs never rank.
    AND NOT r.hidden AND r.profile <> 'quick'`

const bestCellsColumns = `(context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at)`

// bestCellsKey is best_cells' primary key.
const bestCellsKey = `context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo`

// offerBestSQL offers the cells of runs $1 to best_cells: per key, the
// best of them (smallest sort_value, then earlier upload, then smaller id)
// takes the group's place when it is better than the stored one. The upsert
// locks the rows it replaces, so concurrent uploads to one group settle on
// the best of them.
//
// Offers no better than the stored best are left out before the upsert:
// ON CONFLICT DO UPDATE locks (writes) every conflicting row even when its
// WHERE rejects the update, which made a batch of 250 runs cost ~0.9 s at
// 13k runs stored. Leaving an offer out on a stored best is safe because a
// best only gets better while uploads hold bestLock (only a rebuild, which
// excludes them, makes one worse).
const offerBestSQL = `
INSERT INTO best_cells AS b ` + bestCellsColumns + `
SELECT * FROM (
    SELECT DISTINCT ON (` + bestCellsKey + `) * FROM (` + bestCellsSelect + ` AND c.run_id = ANY($1)) AS x
    ORDER BY ` + bestCellsKey + `, sort_value, uploaded_at, id) AS y
WHERE NOT EXISTS (SELECT FROM best_cells o
    WHERE (o.context, o.concurrency, o.metric, o.status, o.model_slug, o.hardware_slug, o.engine_slug, o.quantization_slug, o.demo) =
        (y.context, y.concurrency, y.metric, y.status, y.model_slug, y.hardware_slug, y.engine_slug, y.quantization_slug, y.demo)
    AND (o.sort_value, o.uploaded_at, o.run_id) <= (y.sort_value, y.uploaded_at, y.id))
ORDER BY ` + bestCellsKey + `
ON CONFLICT (` + bestCellsKey + `) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)`

// browseGroupKey is browse_groups' primary key.
const browseGroupKey = `model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`

// countGroupsSQL counts runs $1 in their browse groups. model_base_slug
// follows from model_slug, so min() picks the one value.
const countGroupsSQL = `
INSERT INTO browse_groups AS g (model_slug, model_base_slug, hardware_slug, engine_slug, engine_version, quantization_slug, runs)
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, count(*)
FROM runs WHERE id = ANY($1)
GROUP BY ` + browseGroupKey + `
ORDER BY ` + browseGroupKey + `
ON CONFLICT (` + browseGroupKey + `) DO UPDATE SET runs = g.runs + excluded.runs`

// identityArgs are the arguments of setIdentitiesSQL and of
// nameIdentitiesSQL that store the identities of runs, whose ids are ids
// in the same order.
func identityArgs(ids []string, runs []*run.Run) (set, name []any) {
	var slugs [len(identityKinds)][]string
	var kinds, named, names []string
	for _, r := range runs {
		for k, ident := range runIdentities(r) {
			slugs[k] = append(slugs[k], ident.Slug)
			if ident.Slug != "" {
				kinds, named, names = append(kinds, identityKinds[k]), append(named, ident.Slug), append(names, ident.Name)
			}
		}
	}
	set = []any{ids, slugs[0], slugs[1], slugs[2], slugs[3], slugs[4], slugs[5], catalog.Version}
	return set, []any{kinds, named, names}
}

// indexNewRuns files freshly inserted runs (rows and cells already written
// in tx) for browsing: their identities and numbers, the names of their
// slugs, their cells offered to the leaderboard, and their groups' counts.
// One round trip, whether ids holds one run or a batch; a batch leaves what
// its runs indexed one by one in order would (TestInsertRunsMatchesInsertRun).
func indexNewRuns(ctx context.Context, tx pgx.Tx, ids []string, runs []*run.Run) error {
	if len(ids) == 0 {
		return nil
	}
	set, names := identityArgs(ids, runs)
	b := &pgx.Batch{}
	b.Queue(setIdentitiesSQL, set...)
	b.Queue(nameIdentitiesSQL, names...)
	b.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, bestLock)
	b.Queue(offerBestSQL, ids)
	b.Queue(countGroupsSQL, ids)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	return nil
}
