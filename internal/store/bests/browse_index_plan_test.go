package bests_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestOneRunIndexPlansProbeKeys plans, on an empty database, the statements
// that file one uploaded run for browsing as PostgreSQL keeps them for
// every later call (the generic plan), and wants each to find the run's
// rows by key: a plan that reads a whole table, harmless while it is
// empty, makes every upload slower as the site grows.
func TestOneRunIndexPlansProbeKeys(t *testing.T) {
	ctx, conn := storetest.PlanConn(t, `SET plan_cache_mode = force_generic_plan`)
	n := 0
	for sql, params := range bests.RunIndexSQL() {
		n++
		name := fmt.Sprintf("index_%d", n)
		if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+sql); err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
		rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+params+")")
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		for _, whole := range []string{"Seq Scan on runs", "Seq Scan on decode_cells", "Seq Scan on best_cells", "Seq Scan on version_best_cells",
			"Seq Scan on submitter_best_cells", "Seq Scan on history_"} {
			if strings.Contains(plan, whole) {
				t.Errorf("the plan reads a whole table (%s):\n%s\nof\n%s", whole, plan, sql)
			}
		}
	}
	if n != 7 {
		t.Errorf("%d statements checked, want 7", n)
	}
}
