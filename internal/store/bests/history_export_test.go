package bests

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
