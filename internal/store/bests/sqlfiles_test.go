package bests

import (
	"strings"
	"testing"
)

// TestSQLFilesSpellHistoryRankable: the statements that count or offer a
// run to a history pick its runs by historyRankable, word for word, as
// freshHistoryRankable mirrors it.
func TestSQLFilesSpellHistoryRankable(t *testing.T) {
	for _, name := range []string{"count_run_versions", "count_run_deltas", "offer_run_history"} {
		if !strings.Contains(sqlFile(name), historyRankable) {
			t.Errorf("sql/%s.sql does not say %s", name, historyRankable)
		}
	}
}
