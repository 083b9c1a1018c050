package store

import "strings"

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

// bestCellsSelectList and bestCellsFrom are bestCellsSelectAll's two
// halves, for a table of bests with more columns (bestTable.cellsSelect).
const (
	bestCellsSelectList = `
SELECT c.context, c.concurrency, m.metric, c.status,
    r.model_slug, r.model_base_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, r.demo,
    CASE WHEN m.metric = 'ttft_ms' THEN m.v ELSE -m.v END AS sort_value, m.v, r.id, r.uploaded_at`
	bestCellsFrom = `
FROM decode_cells c
JOIN runs r ON r.id = c.run_id
CROSS JOIN LATERAL (VALUES ('total_tps', c.total_tps), ('per_request_tps', c.per_request_tps),
    ('ttft_ms', c.ttft_ms)) AS m (metric, v)` + bestCellsWhere
	// bestCellsWhere is which of the cells of decode_cells c, of runs r,
	// with their metrics m, rank (liveCellsFrom shares it).
	bestCellsWhere = `
WHERE c.status IN ('valid', 'queued') AND m.v > 0
    -- Hidden runs and lil-bench quick runs never rank.
    AND NOT r.hidden AND r.profile <> 'quick'`
)

// bestCellsSelectAll lists a run's (or a group's) rankable cells as
// best_cells rows: one per valid or queued cell and metric that has a
// positive value.
const bestCellsSelectAll = bestCellsSelectList + bestCellsFrom

// bestCellsSelect is what best_cells holds: runs above the physical bound
// are left out, so a group's best is its best plausible run; a leaderboard
// that includes them adds those runs' cells (liveCellsFrom).
const bestCellsSelect = bestCellsSelectAll + ` AND NOT r.above_bound`

const bestCellsColumns = `(` + bestCellsColumnList + `)`

// bestCellsColumnList is best_cells' columns, as a select list.
const bestCellsColumnList = `context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at`

// bestCellsKey is best_cells' primary key.
const bestCellsKey = `context, concurrency, metric, status, model_slug, hardware_slug, engine_slug, quantization_slug, demo`

// bestTable is a table of best cells kept current as runs come and go:
// best_cells, the best per browse group (groupBests);
// version_best_cells, the best per group and engine version among the
// runs that name one (versionBests, migration 0019), for a leaderboard
// filtered by version; submitter_best_cells, the best per group and
// submitter among the runs that name a proven one (submitterBests,
// migration 0022), for a leaderboard filtered by submitter. All take the
// same offers, rebuilds and rule (bestCellsSelect); the last two have one
// more column and key column, extra, a column of runs.
type bestTable struct {
	name string
	// extra is the key column past best_cells' own ("" for best_cells),
	// the runs column of the same name: a run whose value is empty has
	// no row in the table.
	extra string
	// offer is offerSQL(), made once; offerOne is offerOneSQL(), what an
	// upload sends every time, its offers read by subscript
	// (offerOne.indexed) or by unnest (cellsInsert).
	offer    string
	offerOne cellsInsert
}

var (
	groupBests     = newBestTable("best_cells", "")
	versionBests   = newBestTable("version_best_cells", "engine_version")
	submitterBests = newBestTable("submitter_best_cells", "submitter_slug")
	// bestTables is every table of bests, in the lock order of
	// browse_index.go.
	bestTables = []bestTable{groupBests, versionBests, submitterBests}
)

func newBestTable(name, extra string) bestTable {
	t := bestTable{name: name, extra: extra}
	t.offer = t.offerSQL()
	t.offerOne = cellsInsert{unnest: t.offerOneSQL(false), indexed: t.offerOneSQL(true)}
	return t
}

// extraList is t's columns past best_cells' own, each after a comma.
func (t bestTable) extraList() string {
	if t.extra != "" {
		return ", " + t.extra
	}
	return ""
}

// key is t's key columns.
func (t bestTable) key() string { return bestCellsKey + t.extraList() }

// columns is t's columns, in parentheses.
func (t bestTable) columns() string { return `(` + bestCellsColumnList + t.extraList() + `)` }

// cellsSelect is bestCellsSelect in t's columns: for a table with an
// extra column, only the runs whose value of it is not empty, and that
// value last.
func (t bestTable) cellsSelect() string {
	if t.extra != "" {
		return bestCellsSelectList + `, r.` + t.extra + bestCellsFrom + ` AND NOT r.above_bound AND r.` + t.extra + ` <> ''`
	}
	return bestCellsSelect
}

// rebuildSQL inserts into t the best of the cells cellsSelect picks where
// cond holds too (on runs r; "true" for every run): a rebuild of bests
// whose rows were deleted.
func (t bestTable) rebuildSQL(cond string) string {
	return `INSERT INTO ` + t.name + ` ` + t.columns() + `
SELECT DISTINCT ON (` + t.key() + `) * FROM (` + t.cellsSelect() + ` AND ` + cond + `) AS x
ORDER BY ` + t.key() + `, sort_value, uploaded_at, id`
}

// upsertSQL is the end of an offer of rows to t: a better row takes its
// key's place. The upsert locks the rows it replaces in key order.
func (t bestTable) upsertSQL() string {
	return `
ORDER BY ` + t.key() + `
ON CONFLICT (` + t.key() + `) DO UPDATE SET
    sort_value = excluded.sort_value, value = excluded.value,
    run_id = excluded.run_id, uploaded_at = excluded.uploaded_at
WHERE (excluded.sort_value, excluded.uploaded_at, excluded.run_id) < (b.sort_value, b.uploaded_at, b.run_id)`
}

// offerSQL offers cells to t, the best of the runs' cells per key
// (offerCells), given as arrays by column of t.columns() ($1…$14, and $15
// for the extra column; offerBestArgs): each takes the group's place when it
// is better than the stored one. The upsert locks the rows it replaces,
// in key order, so concurrent uploads to one group settle on the best of
// them.
//
// Offers no better than the stored best are left out before the upsert:
// ON CONFLICT DO UPDATE locks (writes) every conflicting row even when its
// WHERE rejects the update, which made a batch of 250 runs cost ~0.9 s at
// 13k runs stored. Leaving an offer out on a stored best is safe because a
// best only gets better while uploads hold bestLock (only a rebuild, which
// excludes them, makes one worse). The stored best is looked up by a
// LATERAL subquery with LIMIT 1, a probe of the primary key per offer
// whatever the plan (TestOneRunIndexPlansProbeKeys): a generic plan made
// while the table was small could otherwise hash the whole table.
//
// The cells come from memory rather than read back from decode_cells
// joined to runs, which made this the costliest statement of an upload.
func (t bestTable) offerSQL() string {
	arrays := `$1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
    $9::text[], $10::bool[], $11::float8[], $12::float8[], $13::text[], $14::timestamptz[]`
	if t.extra != "" {
		arrays += `, $15::text[]`
	}
	key := strings.Split(t.key(), ", ")
	return `
INSERT INTO ` + t.name + ` AS b ` + t.columns() + `
SELECT y.* FROM unnest(` + arrays + `) AS y ` + t.columns() + `
LEFT JOIN LATERAL (SELECT o.sort_value, o.uploaded_at, o.run_id FROM ` + t.name + ` o
    WHERE (o.` + strings.Join(key, ", o.") + `) = (y.` + strings.Join(key, ", y.") + `)
    LIMIT 1) AS o ON true
WHERE o.run_id IS NULL OR (y.sort_value, y.uploaded_at, y.run_id) < (o.sort_value, o.uploaded_at, o.run_id)` +
		t.upsertSQL()
}

// offerOneSQL is offerSQL for the cells of one run, an upload's: what all
// of them share (the group, the base model, the run's id and upload time,
// the extra column) goes once, $7…$14 (and $15), and only what is each cell's
// own as arrays, $1…$6 (point, metric, status, sort value, value;
// offerOneArgs). As arrays, eight of the fourteen columns were ~50 equal
// elements each, encoded by the server and parsed by the backend at every
// upload. The same probe per offer and the same upsert as offerSQL.
// indexed reads offer i of every array by subscript rather than by
// unnest, as cellsInsert.indexed does and for the same reason.
//
// One more array, $15 (or $16 past the extra column), marks the offers
// the Store's bounds say cannot win (bestBounds), and the next parameter
// is the epoch those bounds were learned under: the marked offers are
// left out before the probe while best_epoch still holds that epoch. The
// statement runs after the upload took bestLock shared, and an upload's
// transaction is READ COMMITTED (uploadTx says so), so the statement's snapshot is
// taken after the lock: it sees the epoch of every rebuild before it, and
// no rebuild can make a best worse between that check and the upsert.
// With any other epoch every offer goes, as with none marked.
func (t bestTable) offerOneSQL(indexed bool) string {
	shared := map[string]string{"model_slug": "$7::text", "model_base_slug": "$8::text",
		"hardware_slug": "$9::text", "engine_slug": "$10::text", "quantization_slug": "$11::text",
		"demo": "$12::bool", "run_id": "$13::text", "uploaded_at": "$14::timestamptz", t.extra: "$15::text"}
	value := func(col string) string {
		if v, ok := shared[col]; ok {
			return v
		}
		return "y." + col
	}
	var list []string
	for _, col := range strings.Split(strings.Trim(t.columns(), "()"), ",") {
		col = strings.TrimSpace(col)
		list = append(list, value(col)+" AS "+col)
	}
	var probe []string
	skip, epoch := t.skipParams()
	for _, col := range strings.Split(t.key(), ", ") {
		probe = append(probe, value(col))
	}
	return `
INSERT INTO ` + t.name + ` AS b ` + t.columns() + `
SELECT ` + strings.Join(list, ", ") + `
FROM ` + offersFrom(indexed, skip, epoch) + `
LEFT JOIN LATERAL (SELECT o.sort_value, o.uploaded_at, o.run_id FROM ` + t.name + ` o
    WHERE (o.` + strings.ReplaceAll(t.key(), ", ", ", o.") + `) = (` + strings.Join(probe, ", ") + `)
    LIMIT 1) AS o ON true
WHERE o.run_id IS NULL OR (y.sort_value, $14::timestamptz, $13::text) < (o.sort_value, o.uploaded_at, o.run_id)` +
		t.upsertSQL()
}

// offersFrom is offerOneSQL's offers y, from its arrays $1…$6, without
// those marked in the bool[] parameter skip while best_epoch holds the
// parameter epoch (skipParams).
func offersFrom(indexed bool, skip, epoch string) string {
	// keep is the condition on an offer whose mark is mark.
	keep := func(mark string) string {
		return `NOT (` + mark + ` AND (SELECT e.epoch FROM best_epoch e) = ` + epoch + `::bigint)`
	}
	if !indexed {
		return `(SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::float8[], $6::float8[],
        ` + skip + `::bool[]) AS u (context, concurrency, metric, status, sort_value, value, skip)
    WHERE ` + keep("u.skip") + `) AS y`
	}
	return `(SELECT u.context, ($2::int[])[u.i::integer] AS concurrency, ($3::text[])[u.i::integer] AS metric,
        ($4::text[])[u.i::integer] AS status, ($5::float8[])[u.i::integer] AS sort_value,
        ($6::float8[])[u.i::integer] AS value
    FROM unnest($1::int[]) WITH ORDINALITY AS u (context, i)
    WHERE ` + keep(`(`+skip+`::bool[])[u.i::integer]`) + `) AS y`
}

// skipParams are offerOneSQL's parameters past the run's, the marks and
// the epoch.
func (t bestTable) skipParams() (skip, epoch string) {
	if t.extra != "" {
		return "$16", "$17"
	}
	return "$15", "$16"
}

// oneRunOffers are the cells in best, all of one run (offerCells of one
// run), in the order offerOneArgs sends them.
func oneRunOffers(best map[bestKey]bestRow) []bestOffer {
	offers := make([]bestOffer, 0, len(best))
	for k, v := range best {
		offers = append(offers, bestOffer{k, v})
	}
	return offers
}

// offerOneArgs are t.offerOne's parameters for offers (oneRunOffers),
// with skip marking those that cannot win under epoch (bestBounds).
func (t bestTable) offerOneArgs(offers []bestOffer, skip []bool, epoch int64) []any {
	args := make([]any, 0, 17)
	for _, j := range [...]int{0, 1, 2, 3, 10, 11} { // bestOfferColumns: point, metric, status, sort value, value
		args = append(args, bestOfferColumns[j](offers))
	}
	k, v := offers[0].k, offers[0].v
	args = append(args, k.model, v.base, k.hardware, k.engine, k.quantization, k.demo, v.runID, v.uploaded)
	if t.extra != "" {
		args = append(args, k.extra)
	}
	return append(args, boolArray(skip), epoch)
}

// offerBestArgs are t.offer's parameters for the cells in best.
func (t bestTable) offerBestArgs(best map[bestKey]bestRow) []any {
	offers := make([]bestOffer, 0, len(best))
	for k, v := range best {
		offers = append(offers, bestOffer{k, v})
	}
	columns := bestOfferColumns
	if t.extra == "" {
		columns = columns[:len(columns)-1]
	}
	args := make([]any, len(columns))
	for j, of := range columns {
		args[j] = of(offers)
	}
	return args
}

// bestOffer is one cell offered to a table of bests.
type bestOffer struct {
	k bestKey
	v bestRow
}

// bestOfferColumns are t.offer's parameters $1…$15 (the last, the extra
// column's value, for a table that has one), each an array read in place from the
// offers.
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
	field(func(o *bestOffer) pgText { return pgText{&o.k.extra} }),
}

// browseGroupKey is browse_groups' primary key.
const browseGroupKey = `model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`
