package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// TestScaleIndexesServeTheirReads plans the reads that grew with the
// number of runs (sitemap.xml, a setup's history) with sequential scans
// priced out, as a large table prices them, and wants each to go through
// the index made for it rather than an index of every run.
func TestScaleIndexesServeTheirReads(t *testing.T) {
	ctx, conn := planConn(t, `SET enable_seqscan = off`)
	for i, q := range store.ScaleSQL {
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

// planConn connects to a fresh database for a plan test and applies set
// (a SET statement that makes the planner show what it would do at scale).
func planConn(t *testing.T, set string) (context.Context, *pgx.Conn) {
	t.Helper()
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := rawConn(t, dbURL)
	if _, err := conn.Exec(ctx, set); err != nil {
		t.Fatal(err)
	}
	return ctx, conn
}

// rawConn is a connection of its own to the test database at dbURL,
// closed when the test ends: for what a test reads or sets beside the
// store (catalog queries, plans, session settings).
func rawConn(t *testing.T, dbURL string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(ctx) })
	return conn
}
