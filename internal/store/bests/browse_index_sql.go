package bests

import (
	"cmp"
	"strings"
	"time"
)

// The statements of the browse index (browse_index.go); those that file
// a fresh run are files of sql/, sent in lock order (the package comment).

// runNumbersSet recomputes the headline numbers of runs row r from its
// stored cells: best_single_tps, the valid cell at concurrency 1 and the
// smallest context; best_peak_tps, the highest valid total tok/s.
const runNumbersSet = `
    best_peak_tps = (SELECT max(c.total_tps) FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid'),
    best_single_tps = (SELECT c.total_tps FROM decode_cells c
        WHERE c.run_id = r.id AND c.status = 'valid' AND c.concurrency = 1
        ORDER BY c.context LIMIT 1)`

// setIdentitiesSQL stores runs' slugs and numbers (the backfill's; an
// upload writes them with the row: insert_run.sql).
var setIdentitiesSQL = sqlFile("set_identities")

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
` + metricValues + bestCellsWhere
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

// bestCellsColumnList is best_cells' columns, as a select list.
const bestCellsColumnList = `context, concurrency, metric, status, model_slug, model_base_slug, hardware_slug, engine_slug,
    quantization_slug, demo, sort_value, value, run_id, uploaded_at`

// bestShownColumns are what a board shows of a best's run beside its cell
// (LeaderRow's engine version, submitter and proven submitter), kept in
// every table of bests after bestCellsColumnList (migration 0036), so that
// a board reads one range of its index and no runs row: joined to runs
// for them, a board at a rare grid point probed runs 100 times, and took
// 1.2-2.8 times as long at a million runs as at a thousand. The offers
// write them from the run (runShown), a rebuild from the runs row; a claim
// changes a stored run's submitter and renews them (RenewClaimedRun).
// version_best_cells' engine_version and submitter_best_cells'
// submitter_slug are their tables' extra key columns too.
const bestShownColumns = `engine_version, submitter, submitter_slug`

// bestCopyColumns are the columns of every table of bests, as a COPY
// names them (bestTable.columns).
var bestCopyColumns = []string{"context", "concurrency", "metric", "status", "model_slug", "model_base_slug",
	"hardware_slug", "engine_slug", "quantization_slug", "demo", "sort_value", "value", "run_id", "uploaded_at",
	"engine_version", "submitter", "submitter_slug"}

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
	// offer offers cells, the best per key (offerCells), as arrays by
	// column (offer_best_cells.sql, offerArgs): a batch's, a bulk load's,
	// a large run's. Each takes its key's place when it is better than
	// the stored row; the upsert locks the rows it replaces, in key order,
	// so concurrent uploads to one group settle on the best of them.
	// Offers no better than the stored best are left out before the
	// upsert: ON CONFLICT DO UPDATE locks (writes) every conflicting row
	// even when its WHERE rejects the update, which made a batch of 250
	// runs cost ~0.9 s at 13k runs stored. That is safe because a best
	// only gets better while uploads hold bestLock (only a rebuild, which
	// excludes them, makes one worse). The stored best is looked up by a
	// LATERAL subquery with LIMIT 1, a probe of the primary key per offer
	// whatever the plan (TestOneRunIndexPlansProbeKeys): a generic plan
	// made while the table was small could otherwise hash the whole table.
	// The cells come from memory rather than read back from decode_cells
	// joined to runs, which made this the costliest statement of an upload.
	//
	// offerRun is what an upload sends (offer_run_best_cells.sql,
	// offerRunArgs): what a run's offers share (the group, the base model,
	// the run's id and upload time, the extra column) goes once, and only
	// what is each cell's own as arrays; as arrays, eight of the fourteen
	// columns were ~50 equal elements each, encoded by the server and
	// parsed by the backend at every upload. The same probe and upsert.
	// One more array marks the offers the Bests handle's bounds say cannot win
	// (bestBounds), and the next parameter is the epoch those bounds were
	// learned under: the marked offers are left out before the probe while
	// best_epoch still holds that epoch. The statement runs after the
	// upload took bestLock shared, and an upload's transaction is READ
	// COMMITTED (uploadTx), so its snapshot is taken after the lock: it
	// sees the epoch of every rebuild before it, and no rebuild can make a
	// best worse between that check and the upsert. With any other epoch
	// every offer goes, as with none marked.
	offer, offerRun string
}

var (
	groupBests = bestTable{name: "best_cells",
		offer: sqlFile("offer_best_cells"), offerRun: sqlFile("offer_run_best_cells")}
	versionBests = bestTable{name: "version_best_cells", extra: "engine_version",
		offer: sqlFile("offer_version_best_cells"), offerRun: sqlFile("offer_run_version_best_cells")}
	submitterBests = bestTable{name: "submitter_best_cells", extra: "submitter_slug",
		offer: sqlFile("offer_submitter_best_cells"), offerRun: sqlFile("offer_run_submitter_best_cells")}
	// bestTables is every table of bests, in lock order (the package comment).
	bestTables = []bestTable{groupBests, versionBests, submitterBests}
)

// extraList is t's columns past best_cells' own, each after a comma.
func (t bestTable) extraList() string {
	if t.extra != "" {
		return ", " + t.extra
	}
	return ""
}

// keyOrder orders offers to t as its primary key does (the database's
// collation is C: byte order): best_cells' from the point, the others'
// from the group.
func (t bestTable) keyOrder(a, b bestOffer) int {
	ka, kb := &a.k, &b.k
	point := cmp.Or(cmp.Compare(ka.context, kb.context), cmp.Compare(ka.concurrency, kb.concurrency),
		strings.Compare(ka.metric, kb.metric), strings.Compare(ka.status, kb.status))
	group := cmp.Or(strings.Compare(ka.model, kb.model), strings.Compare(ka.hardware, kb.hardware),
		strings.Compare(ka.engine, kb.engine), strings.Compare(ka.quantization, kb.quantization),
		compareBool(ka.demo, kb.demo), strings.Compare(ka.extra, kb.extra))
	if t.extra == "" {
		return cmp.Or(point, group)
	}
	return cmp.Or(group, point)
}

// compareBool orders false before true, as PostgreSQL does.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}

// key is t's key columns.
func (t bestTable) key() string { return bestCellsKey + t.extraList() }

// columns is the columns of every table of bests, t's among them, in
// parentheses: bestCellsColumnList, then bestShownColumns (of which t's
// extra column is one).
func (t bestTable) columns() string {
	return `(` + bestCellsColumnList + `, ` + bestShownColumns + `)`
}

// cellsSelect is bestCellsSelect in t's columns: for a table with an
// extra column, only the runs whose value of it is not empty.
func (t bestTable) cellsSelect() string {
	sel := bestCellsSelectList + `, r.engine_version, r.submitter, r.submitter_slug` + bestCellsFrom + ` AND NOT r.above_bound`
	if t.extra != "" {
		sel += ` AND r.` + t.extra + ` <> ''`
	}
	return sel
}

// rebuildSQL inserts into t the best of the cells cellsSelect picks where
// cond holds too (on runs r; "true" for every run): a rebuild of bests
// whose rows were deleted.
func (t bestTable) rebuildSQL(cond string) string {
	return `INSERT INTO ` + t.name + ` ` + t.columns() + `
SELECT DISTINCT ON (` + t.key() + `) * FROM (` + t.cellsSelect() + ` AND ` + cond + `) AS x
ORDER BY ` + t.key() + `, sort_value, uploaded_at, id`
}

// maxRunOffers is the most offers to one table an upload sends by
// offerRun, which reads offer i of each array by subscript: a subscript of
// a text array walks it from its start, so the cost grows with the square
// of its length, and past some 256 offers the arrays of offer, each walked
// once, are cheaper (at 192 cells the subscripts were still a quarter
// faster). The rows come from an unnest rather than generate_series or
// generate_subscripts so that the generic plan, which takes an array
// parameter for 10 elements, is costed below the custom plans, which count
// them: the other way round PostgreSQL planned the offer afresh at every
// upload (TestUploadCellStatementsKeepTheirPlan).
const maxRunOffers = 256

// offerRunArgs are t.offerRun's parameters for offers, all of one run
// (runOffers), with skip marking those that cannot win under epoch
// (bestBounds).
func (t bestTable) offerRunArgs(offers []bestOffer, skip []bool, epoch int64) []any {
	n := len(offers)
	contexts, concurrencies := make([]int, n), make([]int, n)
	metrics, statuses := make([]string, n), make([]string, n)
	sortValues, values := make([]float64, n), make([]float64, n)
	for i := range offers {
		k, v := &offers[i].k, &offers[i].v
		contexts[i], concurrencies[i], metrics[i], statuses[i] = k.context, k.concurrency, k.metric, k.status
		sortValues[i], values[i] = v.sortValue, v.value
	}
	k, v := offers[0].k, offers[0].v
	return []any{contexts, concurrencies, metrics, statuses, sortValues, values,
		k.model, v.base, k.hardware, k.engine, k.quantization, k.demo, v.runID, v.uploaded,
		v.shown.engineVersion, v.shown.submitter, v.shown.submitterSlug, skip, epoch}
}

// offerArgs are t.offer's parameters for offers: each column of t as an
// array, in columns' order.
func (t bestTable) offerArgs(offers []bestOffer) []any {
	n := len(offers)
	contexts, concurrencies := make([]int, n), make([]int, n)
	metrics, statuses, models, bases := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	hardware, engines, quants, runIDs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	demos, sortValues, values, uploaded := make([]bool, n), make([]float64, n), make([]float64, n), make([]time.Time, n)
	versions, submitters, submitterSlugs := make([]string, n), make([]string, n), make([]string, n)
	for i := range offers {
		k, v := &offers[i].k, &offers[i].v
		contexts[i], concurrencies[i], metrics[i], statuses[i] = k.context, k.concurrency, k.metric, k.status
		models[i], bases[i], hardware[i], engines[i], quants[i] = k.model, v.base, k.hardware, k.engine, k.quantization
		demos[i], sortValues[i], values[i], runIDs[i], uploaded[i] = k.demo, v.sortValue, v.value, v.runID, v.uploaded
		versions[i], submitters[i], submitterSlugs[i] = v.shown.engineVersion, v.shown.submitter, v.shown.submitterSlug
	}
	return []any{contexts, concurrencies, metrics, statuses, models, bases, hardware, engines, quants, demos,
		sortValues, values, runIDs, uploaded, versions, submitters, submitterSlugs}
}

// offersOf lists the cells in best (one table's of bestMaps), as offers.
func offersOf(best map[bestGroup]map[bestPoint]bestRow) []bestOffer {
	n := 0
	for _, points := range best {
		n += len(points)
	}
	offers := make([]bestOffer, 0, n)
	for g, points := range best {
		for p, v := range points {
			offers = append(offers, bestOffer{keyOf(g, p), v})
		}
	}
	return offers
}

// bestOffer is one cell offered to a table of bests.
type bestOffer struct {
	k bestKey
	v bestRow
}

// browseGroupKey is browse_groups' primary key.
const browseGroupKey = `model_slug, hardware_slug, engine_slug, engine_version, quantization_slug`
