package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// MustExec runs statements on the database at url, outside the store.
func MustExec(t testing.TB, url string, sqls ...string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, sql := range sqls {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
}

// MustQueryInt returns the single integer a query returns.
func MustQueryInt(t testing.TB, url, sql string, args ...any) int64 {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// RawConn is a connection of its own to the test database at dbURL,
// closed when the test ends: for what a test reads or sets beside the
// store (catalog queries, plans, session settings).
func RawConn(t *testing.T, dbURL string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return conn
}

// PlanConn connects to a fresh database for a plan test and applies set
// (a SET statement that makes the planner show what it would do at scale).
func PlanConn(t *testing.T, set string) (context.Context, *pgx.Conn) {
	t.Helper()
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := RawConn(t, dbURL)
	if _, err := conn.Exec(ctx, set); err != nil {
		t.Fatal(err)
	}
	return ctx, conn
}

// DumpTable is every row of table as JSON text, sorted.
func DumpTable(t *testing.T, url, table string) []string {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Counts are compared folded: how they were split between deltas and
	// folded rows is the timing of the folds, not a difference.
	if _, err := s.FoldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, _ := conn.Query(ctx, fmt.Sprintf(`SELECT to_jsonb(t)::text FROM %s t ORDER BY 1`, table))
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// PlanLaddersDerived, given to DumpTable as a table, is the planner's
// ladders (plan_ladders) as their rule derives them now from best_cells,
// for every setup it holds: what the triggers that keep the table must
// have left there.
const PlanLaddersDerived = `(SELECT l.* FROM (SELECT array_agg(h) AS h, array_agg(m) AS m, array_agg(e) AS e,
        array_agg(q) AS q, array_agg(d) AS d
    FROM (SELECT DISTINCT hardware_slug, model_slug, engine_slug, quantization_slug, demo FROM best_cells
        WHERE metric IN ('per_request_tps', 'total_tps')) AS k (h, m, e, q, d)) AS k
    CROSS JOIN LATERAL plan_ladder_rows(k.h, k.m, k.e, k.q, k.d) AS l)`

// FirstMissing is the first line of a that b lacks, for a message.
func FirstMissing(a, b []string) string {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return s
		}
	}
	return "(none)"
}

// WantIndexesRead plans each of reads (a statement, the start of the name
// of the index its plan is to read through, and parameters for EXECUTE)
// with sequential scans priced out, as a large table prices them, and
// wants each to go through its index rather than an index of every run.
func WantIndexesRead(t *testing.T, reads []struct{ SQL, Index, Params string }) {
	t.Helper()
	ctx, conn := PlanConn(t, `SET enable_seqscan = off`)
	for i, q := range reads {
		name := fmt.Sprintf("scale_%d", i)
		if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+q.SQL); err != nil {
			t.Fatalf("%v\n%s", err, q.SQL)
		}
		rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+q.Params+")")
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		if plan := strings.Join(lines, "\n"); !strings.Contains(plan, q.Index) {
			t.Errorf("the plan does not read %s:\n%s\nof\n%s", q.Index, plan, q.SQL)
		}
	}
}
