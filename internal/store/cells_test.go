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
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestCellArgsMatchRows checks that the upload's insert of a run's cells
// (arrays by column) writes exactly the rows COPY writes from the cells'
// values one by one, every column of both tables, NULLs included, and that
// they read back as the cells written, with the run's source beside them.
// So does a run of 600 cells and 300 prefill rows, more than any run has
// today.
func TestCellArgsMatchRows(t *testing.T) {
	s, url := dbtest.New(t)
	ctx := context.Background()
	r := storetest.SeedRun()
	r.Decode = append(r.Decode, trickyDecodeCells()...)
	for j, p := range storetest.FullRun().Prefill { // its three kinds of row, at contexts of their own
		p.Context = j + 1
		r.Prefill = append(r.Prefill, p)
	}
	r.Prefill = append(r.Prefill, run.PrefillRow{Context: math.MaxInt32, MeasuredContext: -1, Status: run.Queued,
		Reason: `"{a,b}" \ NULL`, ReasonCode: run.ReasonQueued, PromptTPS: f(math.Inf(1)), Completed: i(math.MaxInt64)})
	big := storetest.SeedRun()
	big.Decode, big.Prefill = nil, nil
	for j := range 600 {
		c := trickyDecodeCells()[j%3]
		c.Context, c.Concurrency = j/8, j%8
		big.Decode = append(big.Decode, c)
		if j < 300 {
			p := r.Prefill[j%len(r.Prefill)]
			p.Context = j
			big.Prefill = append(big.Prefill, p)
		}
	}
	conn := storetest.RawConn(t, url)
	for _, tc := range []struct {
		name string
		r    *run.Run
	}{{"", r}, {"big-", big}} {
		source := []byte(`{"a": "source of ` + tc.name + `"}`)
		copyID, uploadID := tc.name+"by-copy", tc.name+"by-upload"
		if err := store.WriteCellsEveryWay(ctx, s, tc.r, copyID, uploadID, source); err != nil {
			t.Fatal(err)
		}
		var body []byte
		if err := conn.QueryRow(ctx, `SELECT body FROM run_sources WHERE run_id = $1`, uploadID).Scan(&body); err != nil {
			t.Fatalf("%s: %v", uploadID, err)
		}
		if string(body) != string(source) {
			t.Errorf("%s: source %q, want %q", uploadID, body, source)
		}
		for _, table := range []string{"decode_cells", "prefill_rows"} {
			byCopy := tableRows(t, conn, table, copyID)
			want := len(tc.r.Decode)
			if table == "prefill_rows" {
				want = len(tc.r.Prefill)
			}
			byInsert := tableRows(t, conn, table, uploadID)
			if len(byInsert) != want {
				t.Errorf("%s, %s: %d rows inserted, want %d", table, uploadID, len(byInsert), want)
			}
			if !slices.Equal(byInsert, byCopy) {
				t.Errorf("%s, %s: the insert wrote\n%q\nCOPY wrote\n%q", table, uploadID, byInsert, byCopy)
			}
		}
	}
	decode, prefill, err := store.ReadCells(ctx, s, "by-upload")
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
// as an upload does, prepared once per connection, for several runs of
// different sizes, and wants PostgreSQL to have kept the generic plan of
// each that reads arrays: a statement whose custom plans always look
// cheaper is planned afresh every time (the best-cell offer over
// generate_series or generate_subscripts was, 0.25 ms of planning per
// upload).
func TestUploadCellStatementsKeepTheirPlan(t *testing.T) {
	_, url := dbtest.New(t)
	ctx := context.Background()
	conn := storetest.RawConn(t, url)
	rng := rand.New(rand.NewPCG(1, 2))
	sqls := map[string]bool{}
	for k := range 12 {
		r := gridRun(rng, 10+5*k, 1+k%5, k) // up to 65 cells: every offer by subscript
		r.Engine.Version = "0.8.0"          // offers to version_best_cells too
		for _, st := range store.UploadCellStatements(r, fmt.Sprintf("run-%d", k)) {
			if _, err := conn.Exec(ctx, st.SQL, st.Args...); err != nil {
				t.Fatalf("%v\n%s", err, st.SQL)
			}
			if strings.Contains(st.SQL, "[]") {
				sqls[st.SQL] = true
			}
		}
	}
	// The decode cells, the prefill rows, the names, two tables of bests,
	// the runs without power and the history.
	if len(sqls) != 7 {
		t.Fatalf("%d statements read arrays, want 7", len(sqls))
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
