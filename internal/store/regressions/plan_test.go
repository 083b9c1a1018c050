package regressions_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store/regressions"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestReadsGoThroughIndexes: each list of /regressions is one range of an
// index of version_changes, newest first, and the fold reads a setup's
// history cells by their key: neither reads every run.
func TestReadsGoThroughIndexes(t *testing.T) {
	type read = struct{ SQL, Index, Params string }
	plan := func(q regressions.Query, index string) read {
		sql, args := regressions.ListSQL(q)
		var params []string
		for _, a := range args {
			switch v := a.(type) {
			case string:
				params = append(params, "'"+v+"'")
			default:
				params = append(params, fmt.Sprint(v))
			}
		}
		return read{sql, index, strings.Join(params, ", ")}
	}
	storetest.WantIndexesRead(t, []read{
		plan(regressions.Query{}, "version_changes_seen_idx"),
		plan(regressions.Query{Engine: "vllm"}, "version_changes_engine_idx"),
		plan(regressions.Query{Hardware: "rtx-3060-12gb"}, "version_changes_hardware_idx"),
		plan(regressions.Query{Run: "k3x9q2"}, "version_changes_"),
		{regressions.SetupCellsSQL, "history_cells_pkey", `'h', 'e', 'm', 'q'`},
	})
}
