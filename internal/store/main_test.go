package store_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// mustExec runs statements on the database at url, outside the store.
func mustExec(t testing.TB, url string, sqls ...string) {
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

// mustQueryInt returns the single integer a query returns.
func mustQueryInt(t testing.TB, url, sql string, args ...any) int64 {
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

// tableCounts counts the rows of every table the store writes.
func tableCounts(t testing.TB, url string) map[string]int64 {
	t.Helper()
	counts := map[string]int64{}
	for _, table := range []string{"runs", "run_sources", "decode_cells", "prefill_rows"} {
		counts[table] = mustQueryInt(t, url, "SELECT count(*) FROM "+table)
	}
	return counts
}
