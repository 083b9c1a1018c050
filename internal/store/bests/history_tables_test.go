package bests_test

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
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
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
	r := storetest.CellRun(models[rng.IntN(2)], gpus[rng.IntN(3)], "vLLM", run.Valid, 0, 10, rng.IntN(6))
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

// TestHistoryTablesMatchRuns stores a mixed set of runs (one by one and
// in a batch) and wants every history read from the kept tables to answer
// what the full read of the runs answered before migration 0016: after
// the uploads, after hiding the runs that held bests, after showing one
// again, deleting one and deriving one again with other statuses and the
// above-bound flag; and the tables equal to a rebuild from every run.
func TestHistoryTablesMatchRuns(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	account, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 16))
	ids := storetest.InsertBothWays(t, s, 80, "h", func(i int) *run.Run { return historyRun(rng, i) })
	check := func(step string) {
		t.Helper()
		got, want := storetest.HistoryAnswers(t, s, conn, ids)
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
		pts, err := s.History(ctx, bests.HistoryQuery{Model: model, Hardware: "rtx-4090-24gb", Engine: "vllm", Concurrency: 1})
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
	storetest.HideThenShowAndDelete(t, s, account, holders, &ids, check, "best holders hidden")

	// Derive two runs again: one loses its valid cells, one is flagged.
	storetest.DeriveFailedAndFlagged(t, s, ids[:2])
	check("two derived again")

	kept := func() (tables []string) {
		for _, table := range []string{"history_cells", "history_versions", "history_setups"} {
			tables = append(tables, strings.Join(storetest.DumpTable(t, dbURL, table), "\n"))
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
	conn := storetest.RawConn(t, dbURL)
	rng := rand.New(rand.NewPCG(3, 5))
	want := map[string]bool{}
	kinds := map[bool]int{}
	for i := range 60 {
		r := historyRun(rng, i)
		r.Submitter = ""
		id := storetest.MustInsertRun(t, s, r, fmt.Sprintf("fr%d", i))
		want[id] = bests.FreshHistoryRankable(r)
		kinds[want[id]]++
	}
	if kinds[true] < 10 || kinds[false] < 10 {
		t.Fatalf("%v runs rankable or not; the fixture should make both", kinds)
	}
	rows, _ := conn.Query(ctx, `SELECT r.id, `+bests.HistoryRankable+` FROM runs r`)
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

// TestOldHistoryReadsRankAsTheIndex: the history's reads as they were
// before its tables were kept (storetest's old reads, which the kept
// tables must answer as) pick the runs the index ranks, word for word.
func TestOldHistoryReadsRankAsTheIndex(t *testing.T) {
	if storetest.HistoryRankable != bests.HistoryRankable {
		t.Errorf("the old reads rank by\n%s\nthe index by\n%s", storetest.HistoryRankable, bests.HistoryRankable)
	}
}
