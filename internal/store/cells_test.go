package store_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// TestCellArgsMatchRows checks that the upload's insert of a run's cells
// (arrays by column, each element read in place from the cells) writes
// exactly the rows COPY writes from the cells' values one by one, every
// column of both tables, NULLs included, and that they read back as the
// cells written. The upload's one statement of its own rows (uploadWrites)
// writes them too, by subscript and by unnest, with the run's source.
func TestCellArgsMatchRows(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	r := seedRun()
	r.Decode = append(r.Decode, trickyDecodeCells()...)
	for j, p := range fullRun().Prefill { // its three kinds of row, at contexts of their own
		p.Context = j + 1
		r.Prefill = append(r.Prefill, p)
	}
	r.Prefill = append(r.Prefill, run.PrefillRow{Context: math.MaxInt32, MeasuredContext: -1, Status: run.Queued,
		Reason: `"{a,b}" \ NULL`, ReasonCode: run.ReasonQueued, PromptTPS: f(math.Inf(1)), Completed: i(math.MaxInt64)})
	source := []byte(`{"a": "source"}`)
	if err := store.WriteCellsEveryWay(ctx, s, r, "by-copy", "by-insert", "by-unnest", [2]string{"by-upload", "by-upload-unnest"},
		source); err != nil {
		t.Fatal(err)
	}
	conn := rawConn(t, url)
	for _, id := range []string{"by-upload", "by-upload-unnest"} {
		var body []byte
		if err := conn.QueryRow(ctx, `SELECT body FROM run_sources WHERE run_id = $1`, id).Scan(&body); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if string(body) != string(source) {
			t.Errorf("%s: source %q, want %q", id, body, source)
		}
	}
	var names int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM identities`).Scan(&names); err != nil || names < 3 {
		t.Errorf("%d identities named (%v), want the run's", names, err)
	}
	for _, table := range []string{"decode_cells", "prefill_rows"} {
		byCopy := tableRows(t, conn, table, "by-copy")
		want := len(r.Decode)
		if table == "prefill_rows" {
			want = len(r.Prefill)
		}
		for _, id := range []string{"by-insert", "by-unnest", "by-upload", "by-upload-unnest"} {
			byInsert := tableRows(t, conn, table, id)
			if len(byInsert) != want {
				t.Errorf("%s, %s: %d rows inserted, want %d", table, id, len(byInsert), want)
			}
			if !slices.Equal(byInsert, byCopy) {
				t.Errorf("%s, %s: the insert wrote\n%q\nCOPY wrote\n%q", table, id, byInsert, byCopy)
			}
		}
	}
	decode, prefill, err := store.ReadCells(ctx, s, "by-insert")
	if err != nil {
		t.Fatal(err)
	}
	sortCells(r)
	if !reflect.DeepEqual(decode, r.Decode) {
		t.Errorf("decode cells read back\n%+v\nwant\n%+v", decode, r.Decode)
	}
	if !reflect.DeepEqual(prefill, r.Prefill) {
		t.Errorf("prefill rows read back\n%+v\nwant\n%+v", prefill, r.Prefill)
	}
}

// TestCellsInsertByRows checks which text inserts a run's rows: by
// subscript up to 256 of them, whose cost grows with the square of their
// number, by unnest past that.
func TestCellsInsertByRows(t *testing.T) {
	for _, n := range []int{1, 48, 256, 257, 5000} {
		decode, prefill := store.CellsInsertSQL(n)
		indexed := n <= 256
		for _, sql := range []string{decode, prefill} {
			if got := strings.Contains(sql, "WITH ORDINALITY"); got != indexed {
				t.Errorf("%d rows: by subscript %v, want %v:\n%s", n, got, indexed, sql)
			}
		}
	}
}

// trickyDecodeCells are cells with every nullable column NULL, every one
// set, extreme numbers and strings that need quoting in an array's text.
func trickyDecodeCells() []run.DecodeCell {
	all := run.DecodeCell{Context: math.MaxInt32, Concurrency: math.MinInt32, MeasuredContext: -7,
		Status: run.Valid, Reason: `a "quoted", {braced} \ reason`, ReasonCode: run.ReasonNoRate, Measured: true,
		Metrics: run.Metrics{TotalTPS: f(math.Inf(1)), PerRequestTPS: f(math.Inf(-1)), TTFTms: f(math.Copysign(0, -1)),
			TBTms: f(math.SmallestNonzeroFloat64), AvgActive: f(math.MaxFloat64), Completed: i(math.MinInt64),
			OutputTokens: i(math.MaxInt64), MeasuredS: f(1e-300)},
		Signals: run.Signals{Failed: true, FailureReason: "NULL", LoopDetected: true, CapacityLimited: true,
			AvgQueue: f(-2.5), QueueFraction: f(1)}}
	none := run.DecodeCell{Context: 1, Concurrency: 1, Status: run.NotMeasured}
	some := run.DecodeCell{Context: 1, Concurrency: 2, Status: run.Failed, Reason: "ünïcode ✓ 日本",
		Metrics: run.Metrics{TTFTms: f(3), OutputTokens: i(0)}, Signals: run.Signals{QueueFraction: f(0)}}
	return []run.DecodeCell{all, none, some}
}

// tableRows is every row of table for run id, run_id left out, as text in
// key order: a NULL and an empty string or a zero read differently.
func tableRows(t *testing.T, conn *pgx.Conn, table, id string) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), `SELECT (to_jsonb(c) - 'run_id')::text FROM `+
		pgx.Identifier{table}.Sanitize()+` c WHERE run_id = $1 ORDER BY 1`, id)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sortCells puts r's cells in the order the store reads them.
func sortCells(r *run.Run) {
	slices.SortFunc(r.Decode, func(a, b run.DecodeCell) int {
		if a.Context != b.Context {
			return a.Context - b.Context
		}
		return a.Concurrency - b.Concurrency
	})
	slices.SortFunc(r.Prefill, func(a, b run.PrefillRow) int { return a.Context - b.Context })
}

// TestUploadCellStatementsKeepTheirPlan runs the statements of an upload
// that read its cells' arrays as an upload does, prepared once per
// connection, for several runs of different sizes, and wants PostgreSQL to
// have kept each one's generic plan: a statement whose custom plans always
// look cheaper is planned afresh every time (the best-cell offer over
// generate_series or generate_subscripts was, 0.25 ms of planning per
// upload).
func TestUploadCellStatementsKeepTheirPlan(t *testing.T) {
	_, url := dbtest.New(t)
	ctx := context.Background()
	conn := rawConn(t, url)
	rng := rand.New(rand.NewPCG(1, 2))
	sqls := map[string]bool{}
	for k := range 12 {
		r := gridRun(rng, 10+5*k, 1+k%5, k) // up to 65 cells: every statement by subscript
		r.Engine.Version = "0.8.0"          // offers to version_best_cells too
		for _, st := range store.UploadCellStatements(r, fmt.Sprintf("run-%d", k)) {
			if _, err := conn.Exec(ctx, st.SQL, st.Args...); err != nil {
				t.Fatalf("%v\n%s", err, st.SQL)
			}
			sqls[st.SQL] = true
		}
	}
	if len(sqls) != 2 {
		t.Fatalf("%d statements, want 2 (the run's rows; offers and counts)", len(sqls))
	}
	for sql := range sqls {
		var generic, custom int64
		err := conn.QueryRow(ctx, `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1`,
			sql).Scan(&generic, &custom)
		if err != nil {
			t.Fatalf("%v\n%s", err, sql)
		}
		if generic < 6 || custom > 5 {
			t.Errorf("%d generic plans, %d custom ones of 12 runs, want the generic kept after 5:\n%s", generic, custom, sql)
		}
	}
}
