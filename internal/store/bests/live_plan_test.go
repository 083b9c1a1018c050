package bests_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestLiveBoardsProbeCellsByRun plans, on an empty database, the boards
// ranked from the runs' own cells (a submitter's of one engine version,
// with and without the runs above the bound, and the flagged runs added to
// a stored board) as
// PostgreSQL keeps them for every later call (the generic plan), and wants
// each matching run's cell found by decode_cells' key: no index on the
// grid point is kept for them (migration 0020), and a plan that reads
// decode_cells whole grows with every run stored.
func TestLiveBoardsProbeCellsByRun(t *testing.T) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	rec := &recorder{on: true}
	s, err := bests.OpenTraced(ctx, dbURL, rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	conn := storetest.RawConn(t, dbURL)
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	alice := bests.RunFilter{Submitter: "alice", EngineVersion: "0.8.0"} // no table keeps both
	boards := []bests.LeaderQuery{
		{Metric: bests.MetricTotal, Context: 32768, Concurrency: 1, Filter: alice, Limit: 10},
		{Metric: bests.MetricTotal, Context: 32768, Concurrency: 1, Filter: alice, IncludeFlagged: true, Limit: 10},
		{Metric: bests.MetricTTFT, Context: 0, Concurrency: 8, IncludeFlagged: true, Limit: 10},
	}
	for i, lq := range boards {
		rec.mu.Lock()
		rec.queries = nil
		rec.mu.Unlock()
		if _, err := s.Leaderboard(ctx, lq); err != nil {
			t.Fatal(err)
		}
		var board *pgx.TraceQueryStartData
		rec.mu.Lock()
		for j, q := range rec.queries {
			if strings.Contains(q.SQL, "CROSS JOIN LATERAL (SELECT * FROM decode_cells c") {
				board = &rec.queries[j]
			}
		}
		rec.mu.Unlock()
		if board == nil {
			t.Fatalf("%+v: no board from the runs' cells was asked for", lq)
		}
		name := fmt.Sprintf("live_%d", i)
		if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+board.SQL); err != nil {
			t.Fatalf("%v\n%s", err, board.SQL)
		}
		rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+literals(t, board.Args)+")")
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		plan := strings.Join(lines, "\n")
		if strings.Contains(plan, "Seq Scan on decode_cells") || !strings.Contains(plan, "decode_cells_pkey") {
			t.Errorf("%+v: the plan does not find each run's cell by decode_cells' key:\n%s\nof\n%s", lq, plan, board.SQL)
		}
	}
}

// literals writes args as the SQL literals of EXECUTE's parameter list.
func literals(t *testing.T, args []any) string {
	t.Helper()
	var out []string
	for _, a := range args {
		switch v := a.(type) {
		case int, int32, int64, bool:
			out = append(out, fmt.Sprint(v))
		case string:
			out = append(out, "'"+strings.ReplaceAll(v, "'", "''")+"'")
		default:
			t.Fatalf("no literal for %T", a)
		}
	}
	return strings.Join(out, ", ")
}
