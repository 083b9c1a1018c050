package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// TestJoinedWritesRunInOrder: the writes of a statement joined from
// several run one after another in the order listed, as the statements
// they replace did, which is what keeps an upload's lock order. Left to
// PostgreSQL, CTEs its main query does not read run after it, the last
// one first: in reverse of this order.
func TestJoinedWritesRunInOrder(t *testing.T) {
	_, url := dbtest.New(t)
	ctx := context.Background()
	conn := rawConn(t, url)
	for _, sql := range []string{`CREATE TEMP SEQUENCE seq`, `CREATE TEMP TABLE log (n bigint, w text)`} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	writes := []string{"first", "second", "third", "fourth"}
	var sqls []string
	for _, w := range writes {
		sqls = append(sqls, `INSERT INTO log SELECT nextval('seq'), '`+w+`' FROM r`)
	}
	if _, err := conn.Exec(ctx, store.JoinWrites(`SELECT 1`, sqls)); err != nil {
		t.Fatal(err)
	}
	rows, _ := conn.Query(ctx, `SELECT w FROM log ORDER BY n`)
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, writes) {
		t.Errorf("the writes ran in the order %q, want %q", got, writes)
	}
}

// TestRenumber moves every parameter, two digits and repeats included.
func TestRenumber(t *testing.T) {
	got := store.Renumber(`SELECT $1, $2::int, $10, ($1)`, func(n int) int { return n + 7 })
	if want := `SELECT $8, $9::int, $17, ($8)`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
