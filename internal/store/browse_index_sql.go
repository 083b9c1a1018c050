package store

// The statements of the browse index (browse_index.go), in lock order
// where they lock rows. Those that name the runs they file take them in
// either shape (runsShape); the text is the same otherwise.

// runNumbersSet recomputes the headline numbers of runs row r from its
// stored cells: best_single_tps, the valid cell at concurrency 1 and the
// smallest context; best_peak_tps, the highest valid total tok/s.
const runNumbersSet = `
    best_peak_tps = (SELECT max(c.total_tps) FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid'),
    best_single_tps = (SELECT c.total_tps FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid' AND c.concurrency = 1
        ORDER BY c.context LIMIT 1)`

// setIdentitiesSQL stores the slugs of the runs ($1, their ids; $2…$7,
// their slugs in identityKinds' order), the catalog version they were
// computed with ($8), and their numbers.
func (sh runsShape) setIdentitiesSQL() string {
	return `
UPDATE runs r SET
    hardware_slug = v.hw, engine_slug = v.engine, model_slug = v.model, model_base_slug = v.base,
    submitter_slug = v.submitter, quantization_slug = v.quant, catalog_version = $8,` + runNumbersSet + `
FROM ` + sh.slugs + ` AS v (id, hw, engine, model, base, submitter, quant)
WHERE r.id = v.id`
}

// nameIdentitiesSQL records the display name of every (kind, slug, name)
// not named yet: the first spelling seen names a slug.
const nameIdentitiesSQL = `
INSERT INTO identities (kind, slug, name)
SELECT DISTINCT ON (kind, slug) kind, slug, name
FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS v (kind, slug, name, n)
ORDER BY kind, slug, n
ON CONFLICT (kind, slug) DO NOTHING`

// bestCellsSelectAll lists a run's (or a group's) rankable cells as
// best_cells rows: one per valid or queued cell and metric that has a
// positive value.
const bestCellsSelectAll = `
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

// bestCellsSelect is what best_cells holds: runs above the physical bound
// are left out, so a group's best is its best plausible run; a leaderboard
// that includes them ranks from bestCellsSelectAll instead.
const bestCellsSelect = bestCellsSelectAll + ` AND NOT r.above_bound`

const bestCellsColumns = `(context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at)`

// bestCellsKey is best_cells' primary key.
const bestCellsKey = `context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo`

// offerBestSQL offers the cells of the runs ($1) to best_cells: per key, the
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
func (sh runsShape) offerBestSQL() string {
	return `
INSERT INTO best_cells AS b ` + bestCellsColumns + `
SELECT * FROM (
    SELECT DISTINCT ON (` + bestCellsKey + `) * FROM (` + bestCellsSelect + ` AND c.run_id ` + sh.ids + `) AS x
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
}

// browseGroupKey is browse_groups' primary key.
const browseGroupKey = `model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`
