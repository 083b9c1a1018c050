package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// historyRun is run i of a mixed set for one hardware and engine: two
// variants of one base model (and a second GPU now and then), three
// versions and two quantizations, four cells of varied statuses whose
// totals tie often, some quick runs, some above the physical bound, some
// without a version, some uploaded in the same minute, some demo runs,
// all the account's.
func historyRun(rng *rand.Rand, i int) *run.Run {
	models := []string{"Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8"}
	gpus := []string{"RTX 4090", "RTX 4090", "RTX 3090"}
	r := cellRun(models[rng.IntN(2)], gpus[rng.IntN(3)], "vLLM", run.Valid, 0, 10, rng.IntN(6))
	r.Submitter = "Sandberg"
	r.Engine.Version = []string{"0.8.0", "0.9.0", "0.10.0", "0.10.0", ""}[rng.IntN(5)]
	r.Engine.Quantization = []string{"FP8", "FP8", "AWQ"}[rng.IntN(3)]
	r.Demo = rng.IntN(3) == 0
	switch rng.IntN(8) {
	case 0:
		r.Profile = "quick"
	case 1:
		r.Flags = []string{run.FlagAboveBound}
	}
	r.UploadedAt = r.UploadedAt.Add(time.Duration(i%3) * time.Hour)
	r.Settings = run.Settings{Contexts: []int{0, 8192}, Concurrencies: []int{1, 4}}
	r.Decode = nil
	for _, ctx := range r.Settings.Contexts {
		for _, conc := range r.Settings.Concurrencies {
			st := []run.Status{run.Valid, run.Valid, run.Valid, run.Queued, run.Failed}[rng.IntN(5)]
			r.Decode = append(r.Decode, run.DecodeCell{Context: ctx, Concurrency: conc, Status: st, Measured: true,
				Metrics: run.Metrics{TotalTPS: f(float64(10 * (1 + rng.IntN(4)))), TTFTms: f(10)}})
		}
	}
	return r
}

// historyAnswers is every history read of the set's setups and cells,
// as the store answers it (new) and as the old full-read SQL does (old),
// one line per read.
func historyAnswers(t *testing.T, s *store.Store, conn *pgx.Conn, ids []string) (got, want []string) {
	t.Helper()
	ctx := context.Background()
	old := func(sql string, args ...any) []string {
		rows, _ := conn.Query(ctx, sql, args...)
		vals, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
			v, err := row.Values()
			return fmt.Sprint(v), err
		})
		if err != nil {
			t.Fatal(err)
		}
		return vals
	}
	add := func(read, g, w string) { got, want = append(got, read+": "+g), append(want, read+": "+w) }
	for _, model := range []string{"qwen-qwen3-8b", "qwen-qwen3-8b-fp8", "qwen3-8b"} {
		for _, hw := range []string{"rtx-4090-24gb", "rtx-3090-24gb"} {
			for _, quant := range []string{"", "fp8", "awq"} {
				q := store.HistoryQuery{Model: model, Hardware: hw, Engine: "vllm", Quantization: quant}
				opts, err := s.HistoryChoices(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				args := []any{q.Model, q.Hardware, q.Engine, q.Quantization}
				var cells []string
				for _, c := range opts.Cells {
					cells = append(cells, fmt.Sprint([]any{c.Context, c.Concurrency}))
				}
				add(fmt.Sprint("cells ", q), strings.Join(cells, " "), strings.Join(old(store.OldHistoryCellsSQL, args...), " "))
				add(fmt.Sprint("quantizations ", q), fmt.Sprint(opts.Quantizations),
					fmt.Sprint(mustStrings(t, conn, store.OldHistoryQuantizationsSQL, q.Model, q.Hardware, q.Engine, "")))
				for _, cell := range [][2]int{{0, 1}, {0, 4}, {8192, 1}, {8192, 4}} {
					q.Context, q.Concurrency = cell[0], cell[1]
					pts, err := s.History(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					var lines []string
					for _, p := range pts {
						lines = append(lines, fmt.Sprint([]any{p.EngineVersion, p.RunID, p.Value, p.Demo}))
					}
					slices.Sort(lines)
					was := old(store.OldHistorySQL, append(args, cell[0], cell[1])...)
					slices.Sort(was)
					add(fmt.Sprint("history ", q), strings.Join(lines, " "), strings.Join(was, " "))
				}
			}
		}
	}
	for _, id := range ids {
		q, _, versions, err := s.SetupVersions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(versions)
		add("versions of "+id, fmt.Sprint(versions), fmt.Sprint(mustStrings(t, conn, store.OldSetupVersionsSQL+" ORDER BY 1",
			q.Model, q.Hardware, q.Engine, q.Quantization)))
	}
	for _, hw := range []string{"rtx-4090-24gb", "rtx-3090-24gb"} {
		setups, err := s.SetupsWithHistory(ctx, store.KindHardware, hw, 10)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, st := range setups {
			lines = append(lines, fmt.Sprint([]any{st.Model, st.Hardware, st.Engine, st.Quantization, int64(st.Versions)}))
		}
		add("setups of "+hw, strings.Join(lines, " "), strings.Join(old(store.OldSetupsWithHistorySQL, hw, 10), " "))
	}
	return got, want
}

func mustStrings(t *testing.T, conn *pgx.Conn, sql string, args ...any) []string {
	t.Helper()
	rows, _ := conn.Query(context.Background(), sql, args...)
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// TestHistoryTablesMatchRuns stores a mixed set of runs (one by one and
// in a batch) and wants every history read from the kept tables to answer
// what the full read of the runs answered before migration 0016: after
// the uploads, after hiding the runs that held bests, after showing one
// again, deleting one and deriving one again with other statuses and the
// above-bound flag; and the tables equal to a rebuild from every run.
func TestHistoryTablesMatchRuns(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := rawConn(t, dbURL)
	account, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 16))
	ids := insertBothWays(t, s, 80, "h", func(i int) *run.Run { return historyRun(rng, i) })
	check := func(step string) {
		t.Helper()
		got, want := historyAnswers(t, s, conn, ids)
		points := 0
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %s\nold full read: %s", step, got[i], want[i])
			}
			if strings.HasPrefix(got[i], "history ") && !strings.HasSuffix(got[i], ": ") {
				points++
			}
		}
		if points < 20 {
			t.Errorf("%s: %d histories with a point; the fixture should fill more", step, points)
		}
	}
	check("stored")

	// Hide the holders of every best at 0×1, show one again, delete one.
	holders := map[string]bool{}
	for _, model := range []string{"qwen-qwen3-8b", "qwen-qwen3-8b-fp8"} {
		pts, err := s.History(ctx, store.HistoryQuery{Model: model, Hardware: "rtx-4090-24gb", Engine: "vllm", Concurrency: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pts {
			holders[p.RunID] = true
		}
	}
	if len(holders) < 3 {
		t.Fatalf("%d holders of bests at 0×1; the fixture should make more", len(holders))
	}
	hideThenShowAndDelete(t, s, account, holders, &ids, check, "best holders hidden")

	// Derive two runs again: one loses its valid cells, one is flagged.
	deriveFailedAndFlagged(t, s, ids[:2])
	check("two derived again")

	kept := func() (tables []string) {
		for _, table := range []string{"history_cells", "history_versions", "history_setups"} {
			tables = append(tables, strings.Join(dumpTable(t, dbURL, table), "\n"))
		}
		return tables
	}
	before := kept()
	if err := s.RebuildBrowse(ctx); err != nil {
		t.Fatal(err)
	}
	after := kept()
	if !slices.Equal(before, after) {
		t.Errorf("the kept tables differ from a rebuild from every run:\nkept:\n%s\nrebuilt:\n%s", before, after)
	}
}

// TestFreshHistoryRankableMatchesSQL stores runs of every kind a history
// leaves out (no engine version, quick, above the bound) and others, and
// wants the Go rule an upload uses to skip the offer of its cells to agree
// with the SQL rule on the stored rows, run by run: were the Go rule
// narrower, an upload would leave out cells a history shows.
func TestFreshHistoryRankableMatchesSQL(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := rawConn(t, dbURL)
	rng := rand.New(rand.NewPCG(3, 5))
	want := map[string]bool{}
	kinds := map[bool]int{}
	for i := range 60 {
		r := historyRun(rng, i)
		r.Submitter = ""
		id := mustInsertRun(t, s, r, fmt.Sprintf("fr%d", i))
		want[id] = store.FreshHistoryRankable(r)
		kinds[want[id]]++
	}
	if kinds[true] < 10 || kinds[false] < 10 {
		t.Fatalf("%v runs rankable or not; the fixture should make both", kinds)
	}
	rows, _ := conn.Query(ctx, `SELECT r.id, `+store.HistoryRankable+` FROM runs r`)
	got, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (struct {
		id string
		ok bool
	}, error) {
		var v struct {
			id string
			ok bool
		}
		return v, row.Scan(&v.id, &v.ok)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d runs stored, want %d", len(got), len(want))
	}
	for _, g := range got {
		if g.ok != want[g.id] {
			t.Errorf("run %s: SQL says rankable %v, Go %v", g.id, g.ok, want[g.id])
		}
	}
}
