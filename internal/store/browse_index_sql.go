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

const bestCellsColumns = `(` + bestCellsColumnList + `)`

// bestCellsColumnList is best_cells' columns, as a select list.
const bestCellsColumnList = `context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at`

// bestCellsKey is best_cells' primary key.
const bestCellsKey = `context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo`

// offerBestSQL offers cells to best_cells, the best of the runs' cells per
// key (offerCells), given as arrays by column of bestCellsColumns ($1…$14,
// offerBestArgs): each takes the group's place when it is better than the
// stored one. The upsert locks the rows it replaces, in key order, so
// concurrent uploads to one group settle on the best of them.
//
// Offers no better than the stored best are left out before the upsert:
// ON CONFLICT DO UPDATE locks (writes) every conflicting row even when its
// WHERE rejects the update, which made a batch of 250 runs cost ~0.9 s at
// 13k runs stored. Leaving an offer out on a stored best is safe because a
// best only gets better while uploads hold bestLock (only a rebuild, which
// excludes them, makes one worse). The stored best is looked up by a
// LATERAL subquery with LIMIT 1, a probe of the primary key per offer
// whatever the plan (TestOneRunIndexPlansProbeKeys): a generic plan made
// while best_cells was small could otherwise hash the whole table.
//
// The cells come from memory rather than read back from decode_cells
// joined to runs, which made this the costliest statement of an upload.
const offerBestSQL = `
INSERT INTO best_cells AS b ` + bestCellsColumns + `
SELECT y.* FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::bool[], $11::float8[], $12::float8[], $13::text[], $14::timestamptz[]) AS y ` + bestCellsColumns + `
LEFT JOIN LATERAL (SELECT o.sort_value, o.uploaded_at, o.run_id FROM best_cells o
    WHERE (o.context, o.concurrency, o.metric, o.status, o.model_slug, o.hardware_slug, o.engine_slug, o.quantization_slug, o.demo) =
        (y.context, y.concurrency, y.metric, y.status, y.model_slug, y.hardware_slug, y.engine_slug, y.quantization_slug, y.demo)
    LIMIT 1) AS o ON true
WHERE o.run_id IS NULL OR (y.sort_value, y.uploaded_at, y.run_id) < (o.sort_value, o.uploaded_at, o.run_id)
ORDER BY ` + bestCellsKey + `
ON CONFLICT (` + bestCellsKey + `) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)`

// offerBestArgs are offerBestSQL's parameters for the cells in best.
func offerBestArgs(best map[bestKey]bestRow) []any {
	offers := make([]bestOffer, 0, len(best))
	for k, v := range best {
		offers = append(offers, bestOffer{k, v})
	}
	args := make([]any, len(bestOfferColumns))
	for j, of := range bestOfferColumns {
		args[j] = of(offers)
	}
	return args
}

// bestOffer is one cell offered to best_cells.
type bestOffer struct {
	k bestKey
	v bestRow
}

// bestOfferColumns are offerBestSQL's parameters $1…$14, each an array
// read in place from the offers.
var bestOfferColumns = []func([]bestOffer) any{
	field(func(o *bestOffer) pgInt { return pgInt{&o.k.context} }),
	field(func(o *bestOffer) pgInt { return pgInt{&o.k.concurrency} }),
	field(func(o *bestOffer) pgText { return pgText{&o.k.metric} }),
	field(func(o *bestOffer) pgText { return pgText{&o.k.status} }),
	field(func(o *bestOffer) pgText { return pgText{&o.k.model} }),
	field(func(o *bestOffer) pgText { return pgText{&o.v.base} }),
	field(func(o *bestOffer) pgText { return pgText{&o.k.hardware} }),
	field(func(o *bestOffer) pgText { return pgText{&o.k.engine} }),
	field(func(o *bestOffer) pgText { return pgText{&o.k.quantization} }),
	field(func(o *bestOffer) pgBool { return pgBool{&o.k.demo} }),
	field(func(o *bestOffer) pgOptFloat { return pgOptFloat{&o.v.sortValue} }),
	field(func(o *bestOffer) pgOptFloat { return pgOptFloat{&o.v.value} }),
	field(func(o *bestOffer) pgText { return pgText{&o.v.runID} }),
	field(func(o *bestOffer) pgTime { return pgTime{&o.v.uploaded} }),
}

// browseGroupKey is browse_groups' primary key.
const browseGroupKey = `model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`
