package store

// The reads of a setup's history as they were before migration 0016:
// from every rankable run of the setup. TestHistoryTablesMatchRuns holds
// the kept tables' answers to them.
const oldHistoryWhere = `(r.model_slug = $1 OR r.model_base_slug = $1) AND r.hardware_slug = $2
    AND r.engine_slug = $3 AND ($4 = '' OR r.quantization_slug = $4) AND ` + historyRankable

// OldHistorySQL is History's answer ($1–$6) from the runs.
const OldHistorySQL = `
SELECT DISTINCT ON (r.engine_version) r.engine_version, r.id, c.total_tps, r.demo
FROM runs r JOIN decode_cells c ON c.run_id = r.id
WHERE ` + oldHistoryWhere + `
    AND c.context = $5 AND c.concurrency = $6 AND c.status = 'valid' AND c.total_tps > 0
ORDER BY r.engine_version, c.total_tps DESC, r.uploaded_at, r.id`

// OldHistoryCellsSQL is HistoryChoices' cells ($1–$4) from the runs.
const OldHistoryCellsSQL = `
SELECT DISTINCT c.context, c.concurrency FROM runs r JOIN decode_cells c ON c.run_id = r.id
WHERE ` + oldHistoryWhere + ` AND c.status = 'valid' AND c.total_tps > 0
ORDER BY c.context, c.concurrency`

// OldHistoryQuantizationsSQL is HistoryChoices' quantizations ($1–$3, $4
// empty) from the runs.
const OldHistoryQuantizationsSQL = `
SELECT r.quantization_slug FROM runs r WHERE ` + oldHistoryWhere + `
GROUP BY r.quantization_slug ORDER BY count(*) DESC, r.quantization_slug`

// OldSetupVersionsSQL is SetupVersions' versions ($1–$4) from the runs.
const OldSetupVersionsSQL = `SELECT DISTINCT r.engine_version FROM runs r WHERE ` + oldHistoryWhere

// OldSetupsWithHistorySQL is SetupsWithHistory ($1 the hardware's slug,
// $2 the limit) from the runs.
const OldSetupsWithHistorySQL = `
SELECT r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, count(DISTINCT r.engine_version)
FROM runs r WHERE r.hardware_slug = $1 AND ` + historyRankable + `
GROUP BY r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug
HAVING count(DISTINCT r.engine_version) > 1
ORDER BY count(DISTINCT r.engine_version) DESC, r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug
LIMIT $2`

// VersionsSetupsWithHistorySQL is SetupsWithHistory ($1 the slug of
// column col, $2 the limit) as it was before migration 0021: every
// history_versions row of the identity grouped by setup, the pending
// deltas added.
func VersionsSetupsWithHistorySQL(col string) string {
	return `
SELECT v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug, count(*)
FROM (SELECT ` + historyVersionsKey + ` FROM (
        SELECT ` + historyVersionsKey + `, runs FROM history_versions WHERE ` + col + ` = $1
        UNION ALL
        SELECT ` + historyVersionsKey + `, history_runs FROM browse_count_deltas WHERE ` + col + ` = $1 AND history_runs <> 0) AS c
    GROUP BY ` + historyVersionsKey + ` HAVING sum(runs) > 0) AS v
GROUP BY v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug
HAVING count(*) > 1
ORDER BY count(*) DESC, v.model_slug, v.hardware_slug, v.engine_slug, v.quantization_slug
LIMIT $2`
}

// HistoryKindColumn is the column of an entity page's kind.
var HistoryKindColumn = historyKindColumn

// HistoryReadSQL is the reads of migration 0016's tables, each with the
// index it is to read through and parameters for EXECUTE; HistoryWriteSQL
// is the statements that keep the tables for one uploaded run (its cells,
// then its counts, the browse group's among them) and one rebuilt setup and
// version.
var (
	HistoryReadSQL = []struct{ SQL, Index, Params string }{
		{historySQL, "history_cells_pkey", "'m', 'h', 'e', 'q', 0, 1"},
		{historySQL, "history_cells_base_idx", "'m', 'h', 'e', 'q', 0, 1"},
		{historyCellsSQL, "history_cells_pkey", "'m', 'h', 'e', 'q'"},
		{historyCellsSQL, "history_cells_base_idx", "'m', 'h', 'e', 'q'"},
		{historyQuantizationsSQL, "history_versions_pkey", "'m', 'h', 'e', ''"},
		{historyQuantizationsSQL, "history_versions_base_idx", "'m', 'h', 'e', ''"},
		{setupVersionsSQL, "history_versions_pkey", "'m', 'h', 'e', 'q'"},
		{setupVersionsSQL, "history_versions_base_idx", "'m', 'h', 'e', 'q'"},
		{setupsWithHistorySQL("hardware_slug"), "history_setups_hardware_idx", "'h', 10"},
		{setupsWithHistorySQL("engine_slug"), "history_setups_engine_idx", "'e', 10"},
		{setupsWithHistorySQL("model_slug"), "history_setups_model_idx", "'m', 10"},
		{setupsWithHistorySQL("model_base_slug"), "history_setups_base_idx", "'m', 10"},
	}
	HistoryWriteSQL = append([]string{offerRunHistorySQL, countRunGroupsSQL, countRunVersionsSQL, countRunDeltasSQL},
		rebuildHistoryOfSQL[:]...)
)

// HistoryWriteParams are EXECUTE's parameters for HistoryWriteSQL[i].
func HistoryWriteParams(i int) string {
	switch i {
	case 0:
		return `'a', '{a}', '{0}', '{1}', '{2.5}'`
	case 3:
		return `'a', 1`
	}
	return `'a'`
}

// FreshHistoryRankable exposes freshHistoryRankable; HistoryRankable is
// the SQL rule it mirrors, on runs r.
var FreshHistoryRankable = freshHistoryRankable

const HistoryRankable = historyRankable
