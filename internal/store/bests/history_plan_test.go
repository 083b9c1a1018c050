package bests_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// explainAll prepares each statement on conn and returns its plan for the
// parameters given, one string per statement.
func explainAll(t *testing.T, conn *pgx.Conn, prefix string, sqls, params []string) []string {
	t.Helper()
	ctx := context.Background()
	plans := make([]string, len(sqls))
	for i, sql := range sqls {
		name := fmt.Sprintf("%s_%d", prefix, i)
		if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+sql); err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
		rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+params[i]+")")
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plans[i] = strings.Join(lines, "\n")
	}
	return plans
}

// TestHistoryReadsProbeTheirTables plans a history's reads with sequential
// scans priced out, as large tables price them, and wants each to read the
// kept tables through the index made for it, and no run or cell: their
// cost must not grow with the setup's runs.
func TestHistoryReadsProbeTheirTables(t *testing.T) {
	_, conn := storetest.PlanConn(t, `SET enable_seqscan = off`)
	var sqls, params []string
	for _, q := range bests.HistoryReadSQL {
		sqls, params = append(sqls, q.SQL), append(params, q.Params)
	}
	for i, plan := range explainAll(t, conn, "history_read", sqls, params) {
		q := bests.HistoryReadSQL[i]
		if !strings.Contains(plan, q.Index) {
			t.Errorf("the plan does not read %s:\n%s\nof\n%s", q.Index, plan, q.SQL)
		}
		for _, table := range []string{" on runs", " on decode_cells", " on browse_groups"} {
			if strings.Contains(plan, table) {
				t.Errorf("the plan reads%s:\n%s\nof\n%s", table, plan, q.SQL)
			}
		}
	}
}

// TestHistoryWritesProbeKeys plans, on an empty database, the statements
// that keep the history tables for one uploaded run and for one rebuilt
// setup, as PostgreSQL keeps them for every later call (the generic
// plan), and wants none to read a whole table: harmless while it is
// empty, such a plan makes every upload slower as the site grows.
func TestHistoryWritesProbeKeys(t *testing.T) {
	_, conn := storetest.PlanConn(t, `SET plan_cache_mode = force_generic_plan`)
	var params []string
	for i := range bests.HistoryWriteSQL {
		params = append(params, bests.HistoryWriteParams(i))
	}
	for i, plan := range explainAll(t, conn, "history_write", bests.HistoryWriteSQL, params) {
		for _, whole := range []string{"Seq Scan on runs", "Seq Scan on decode_cells", "Seq Scan on history_"} {
			if strings.Contains(plan, whole) {
				t.Errorf("the plan reads a whole table (%s):\n%s\nof\n%s", whole, plan, bests.HistoryWriteSQL[i])
			}
		}
	}
}
