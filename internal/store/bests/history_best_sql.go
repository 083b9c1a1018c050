package bests

// The statements of the kept-current history tables (migration 0016,
// history_best.go): history_cells, the best valid total tok/s per setup,
// engine version and cell; history_versions, the rankable runs per setup
// and engine version, folded from the deltas uploads append
// (browse_counts.go, migration 0017).

// historyRankable picks the runs r a history reads: shown, rankable (not
// above the physical bound, not quick) and naming a version. Migration
// 0016 spells it out too, as it filled the tables.
const historyRankable = `r.engine_version <> '' AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick'`

// historySetupRows is the rows of table (history_cells or
// history_versions) of one setup ($1–$4): the model (a variant's or a
// base model's slug), hardware, engine and, unless empty, quantization.
// Two ranges, one per index, rather than one condition with OR, which
// PostgreSQL reads as the range of the hardware and engine (every model's
// rows) filtered; a variant that is its own base model is in the first.
func historySetupRows(table string) string {
	const setup = ` AND hardware_slug = $2 AND engine_slug = $3 AND ($4 = '' OR quantization_slug = $4)`
	return `(SELECT * FROM ` + table + ` WHERE model_slug = $1` + setup + `
    UNION ALL
    SELECT * FROM ` + table + ` WHERE model_base_slug = $1 AND model_slug <> $1` + setup + `)`
}

// historyCellsKey is history_cells' primary key; historyVersionsKey is
// history_versions'.
const (
	historyCellsKey    = `hardware_slug, engine_slug, model_slug, context, concurrency, quantization_slug, engine_version`
	historyVersionsKey = `hardware_slug, engine_slug, model_slug, quantization_slug, engine_version`
)

const (
	historyCellsColumns    = `(` + historyCellsKey + `, model_base_slug, total_tps, uploaded_at, run_id, demo)`
	historyVersionsColumns = `(` + historyVersionsKey + `, model_base_slug, runs)`
)

// historyBetter is the order of two offers of one key: more total tok/s,
// then the earlier upload, then the smaller id.
const historyBetter = `total_tps DESC, uploaded_at, run_id`

// historyCellOf is the history_cells row of run r's cell c, in
// historyCellsColumns' order.
const historyCellOf = `r.hardware_slug, r.engine_slug, r.model_slug, c.context, c.concurrency, r.quantization_slug,
    r.engine_version, r.model_base_slug, c.total_tps, r.uploaded_at, r.id AS run_id, r.demo`

// historyCellsFrom lists, as history_cells rows, the best valid cell of
// each key among the rankable runs that cond (on runs r) picks, from their
// stored cells: how a rebuild derives the table.
func historyCellsFrom(cond string) string {
	return `
SELECT DISTINCT ON (` + historyCellsKey + `) * FROM (
    SELECT ` + historyCellOf + `
    FROM runs r JOIN decode_cells c ON c.run_id = r.id
    WHERE ` + historyRankable + ` AND c.status = 'valid' AND c.total_tps > 0 AND ` + cond + `) AS x
ORDER BY ` + historyCellsKey + `, ` + historyBetter
}

// historyVersionsFrom counts, as history_versions rows, the rankable runs
// that cond (on runs r) picks. model_base_slug follows from model_slug, so
// min() picks the one value.
func historyVersionsFrom(cond string) string {
	return `
SELECT ` + historyVersionsKey + `, min(model_base_slug), count(*) FROM runs r
WHERE ` + historyRankable + ` AND ` + cond + `
GROUP BY ` + historyVersionsKey
}

// historyOfRun picks the rows of run $1's setup and engine version in
// either table, and its runs in historyCellsFrom and historyVersionsFrom
// (whose runs r are the only relation with these columns): one range of
// runs_setup_idx (migration 0014).
const historyOfRun = `(hardware_slug, engine_slug, model_slug, quantization_slug, engine_version) =
    (SELECT hardware_slug, engine_slug, model_slug, quantization_slug, engine_version FROM runs WHERE id = $1)`

// setupOfRun picks the history_versions and history_setups rows of run
// $1's setup: one range of either primary key.
const setupOfRun = `(hardware_slug, engine_slug, model_slug, quantization_slug) =
    (SELECT hardware_slug, engine_slug, model_slug, quantization_slug FROM runs WHERE id = $1)`

// The statements of rebuildHistoryOf, in order: run $1's setup and
// version derived again from its runs, then the setup's count of versions
// from its history_versions rows (a row left alone when its count holds).
var rebuildHistoryOfSQL = [...]string{
	`DELETE FROM history_cells WHERE ` + historyOfRun,
	`INSERT INTO history_cells ` + historyCellsColumns + historyCellsFrom(historyOfRun),
	`DELETE FROM history_versions WHERE ` + historyOfRun,
	`INSERT INTO history_versions ` + historyVersionsColumns + historyVersionsFrom(historyOfRun),
	`INSERT INTO history_setups AS s ` + historySetupsColumns + `
` + historySetupsFrom(`history_versions WHERE `+setupOfRun) + `
ON CONFLICT (` + historySetupsKey + `) DO UPDATE SET versions = excluded.versions WHERE s.versions <> excluded.versions`,
	`DELETE FROM history_setups s WHERE ` + setupOfRun + ` AND NOT EXISTS (SELECT FROM history_versions WHERE ` + setupOfRun + `)`,
}

// historySetupsKey is history_setups' primary key (migration 0021): a
// setup; historySetupsColumns is its columns.
const (
	historySetupsKey     = `hardware_slug, engine_slug, model_slug, quantization_slug`
	historySetupsColumns = `(` + historySetupsKey + `, model_base_slug, versions)`
)

// historySetupsFrom counts the versions of each setup among the
// history_versions rows of rel (the table with a condition, or the rows an
// insert returned), as history_setups rows in key order: the order in
// which an upsert locks them.
func historySetupsFrom(rel string) string {
	return `SELECT ` + historySetupsKey + `, min(model_base_slug), count(*) FROM ` + rel + `
    GROUP BY ` + historySetupsKey + ` ORDER BY ` + historySetupsKey
}

// historySQL is each engine version's best valid total tok/s at one cell
// ($5 × $6) of a setup ($1–$4): one range of history_cells' key, or of
// history_cells_base_idx for a base model.
var historySQL = `
SELECT DISTINCT ON (h.engine_version) h.engine_version, h.run_id AS id, h.total_tps, h.demo
FROM ` + historySetupRows("history_cells") + ` AS h
WHERE h.context = $5 AND h.concurrency = $6
ORDER BY h.engine_version, h.total_tps DESC, h.uploaded_at, h.run_id`

// historyCellsSQL is the cells a setup ($1–$4) has a history of.
var historyCellsSQL = `
SELECT DISTINCT h.context, h.concurrency FROM ` + historySetupRows("history_cells") + ` AS h
ORDER BY h.context, h.concurrency`

// historySetupVersions is the versions of one setup ($1–$4, as
// historySetupRows) that rankable runs name, with their runs: the folded
// counts and the deltas not folded yet (browse_counts.go), a version whose
// sum is not positive left out (its row stays, with no runs, until the
// setup is derived again).
var historySetupVersions = `(SELECT v.quantization_slug, v.engine_version, sum(v.runs) AS runs FROM (
    SELECT quantization_slug, engine_version, runs FROM ` + historySetupRows("history_versions") + ` AS f
    UNION ALL
    SELECT quantization_slug, engine_version, history_runs FROM browse_count_deltas
    WHERE history_runs <> 0 AND (model_slug = $1 OR model_base_slug = $1) AND hardware_slug = $2 AND engine_slug = $3
        AND ($4 = '' OR quantization_slug = $4)) AS v
GROUP BY v.quantization_slug, v.engine_version HAVING sum(v.runs) > 0)`

// historyQuantizationsSQL is a setup's quantizations ($1–$3, with $4
// empty), most runs first.
var historyQuantizationsSQL = `
SELECT v.quantization_slug FROM ` + historySetupVersions + ` AS v
GROUP BY v.quantization_slug ORDER BY sum(v.runs) DESC, v.quantization_slug`

// setupVersionsSQL is the engine versions of a setup ($1–$4).
var setupVersionsSQL = `SELECT DISTINCT v.engine_version FROM ` + historySetupVersions + ` AS v`

// setupsWithHistorySQL is the setups whose column col (historyKindColumn)
// is $1, with more than one engine version, most versions first, $2 of
// them: the first rows of one range of the kind's index of history_setups
// (migration 0021), whose order is the links' own.
func setupsWithHistorySQL(col string) string {
	return `
SELECT model_slug, hardware_slug, engine_slug, quantization_slug, versions FROM history_setups
WHERE ` + col + ` = $1 AND versions > 1
ORDER BY versions DESC, model_slug, hardware_slug, engine_slug, quantization_slug
LIMIT $2`
}
