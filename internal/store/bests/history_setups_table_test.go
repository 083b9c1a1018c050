package bests_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// manySetupsRun is run i of a set of many setups: four models (two
// variants of one base, two of their own), four GPUs, two engines, three
// quantizations and up to six versions, so that setups have from one to
// six versions and many tie on their count; some runs are quick, above
// the bound or name no version (no history reads them).
func manySetupsRun(rng *rand.Rand, i int) *run.Run {
	models := []string{"Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8", "meta-llama/Llama-3.1-8B-Instruct", "acme/tiny-1b"}
	gpus := []string{"RTX 4090", "RTX 3090", "RTX 5090", "L40S"}
	r := storetest.CellRun(models[rng.IntN(len(models))], gpus[rng.IntN(len(gpus))], []string{"vLLM", "SGLang"}[rng.IntN(2)],
		run.Valid, float64(10+rng.IntN(50)), 10, i%60)
	r.Submitter = "Sandberg"
	// Fewer versions for some setups than others: a version's index is
	// bounded by a number the setup's GPU and model pick.
	r.Engine.Version = []string{"0.5.0", "0.6.0", "0.7.0", "0.8.0", "0.9.0", "0.10.0", ""}[rng.IntN(2+(i%5))]
	r.Engine.Quantization = []string{"FP8", "AWQ", ""}[rng.IntN(3)]
	switch rng.IntN(10) {
	case 0:
		r.Profile = "quick"
	case 1:
		r.Flags = []string{run.FlagAboveBound}
	}
	return r
}

// TestHistorySetupsMatchVersions stores many setups and wants every
// entity page's history links read from history_setups (migration 0021)
// to be those the grouping of history_versions gave before it, in the same
// order with ties broken alike, for every hardware, engine, model and base
// model and several limits: with deltas pending, folded, after hiding runs
// that were their version's only run in a setup (the setup loses a
// version), showing one again, deleting one and deriving two again; and
// the kept table equal to one derived from every run.
func TestHistorySetupsMatchVersions(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	account, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(21, 5))
	ids := storetest.InsertBothWays(t, s, 400, "m", func(i int) *run.Run { return manySetupsRun(rng, i) })
	slugs := map[string][]string{}
	for kind, col := range bests.HistoryKindColumn {
		slugs[kind] = storetest.MustStrings(t, conn, `SELECT DISTINCT `+col+` FROM runs ORDER BY 1`)
	}
	check := func(step string) {
		t.Helper()
		links, ties := 0, 0
		for kind, col := range bests.HistoryKindColumn {
			for _, slug := range slugs[kind] {
				for _, limit := range []int{1, 3, 10, 1000} {
					setups, err := s.SetupsWithHistory(ctx, kind, slug, limit)
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for i, st := range setups {
						got = append(got, fmt.Sprint([]any{st.Model, st.Hardware, st.Engine, st.Quantization, int64(st.Versions)}))
						if limit == 1000 {
							links++
							if i > 0 && setups[i-1].Versions == st.Versions {
								ties++
							}
						}
					}
					rows, _ := conn.Query(ctx, bests.VersionsSetupsWithHistorySQL(col), slug, limit)
					want, err := collectLines(rows)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s: %s %s, limit %d:\n%s\nwant (grouped from history_versions)\n%s", step, kind, slug, limit,
							strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
				}
			}
		}
		if links < 100 || ties < 50 {
			t.Errorf("%s: %d links, %d ties on their count; the fixture should make more", step, links, ties)
		}
	}
	check("stored, deltas pending")
	if _, err := s.FoldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	check("folded")

	// The runs that are the only rankable run of their version in their
	// setup: hiding one takes a version from its setup.
	alone := map[string]bool{}
	for _, id := range storetest.MustStrings(t, conn, `SELECT min(id) FROM runs
WHERE engine_version <> '' AND NOT hidden AND NOT above_bound AND profile <> 'quick'
GROUP BY hardware_slug, engine_slug, model_slug, quantization_slug, engine_version HAVING count(*) = 1
ORDER BY 1 LIMIT 12`) {
		alone[id] = true
	}
	if len(alone) < 6 {
		t.Fatalf("%d runs alone in their version; the fixture should make more", len(alone))
	}
	setupsBefore := storetest.MustQueryInt(t, dbURL, `SELECT sum(versions) FROM history_setups`)
	storetest.HideThenShowAndDelete(t, s, account, alone, &ids, check, "lone versions hidden")
	if after := storetest.MustQueryInt(t, dbURL, `SELECT sum(versions) FROM history_setups`); after != setupsBefore-int64(len(alone))+1 {
		t.Errorf("history_setups counts %d versions, want %d: %d were %d, one shown again",
			after, setupsBefore-int64(len(alone))+1, len(alone), setupsBefore)
	}
	storetest.DeriveFailedAndFlagged(t, s, ids[:2])
	check("two derived again")

	// One more upload of a new version to a setup that has some.
	r := manySetupsRun(rng, 1)
	r.Engine.Version = "0.11.0"
	storetest.MustInsertRun(t, s, r, "new version")
	check("a new version, pending")

	kept := storetest.DumpTable(t, dbURL, "history_setups")
	if err := bests.RebuildAllBest(ctx, s.Bests); err != nil {
		t.Fatal(err)
	}
	if rebuilt := storetest.DumpTable(t, dbURL, "history_setups"); !slices.Equal(kept, rebuilt) {
		t.Errorf("history_setups kept:\n%s\nrebuilt from every run:\n%s", strings.Join(kept, "\n"), strings.Join(rebuilt, "\n"))
	}
}

// collectLines is each row's values, printed, one string a row.
func collectLines(rows pgx.Rows) ([]string, error) {
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
		v, err := row.Values()
		return fmt.Sprint(v), err
	})
}

// TestHistorySetupsUnderConcurrentUploads has four writers upload runs of
// two setups at once, each upload naming one of five versions so that
// writers bring a setup the same new version at the same time, while the
// counts are folded and some runs hidden: no upload may fail (a deadlock
// aborts one), and at the end the kept counts of versions must be what a
// rebuild from every run derives, and the links the grouping's.
func TestHistorySetupsUnderConcurrentUploads(t *testing.T) {
	_, dbURL := dbtest.New(t)
	const writers, each = 4, 10
	s := storetest.OpenWide(t, dbURL, writers+3)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	stopFolding := foldOverAndOver(ctx, s)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				r := storetest.CellRun([]string{"Qwen/Qwen3-8B", "Qwen/Qwen3-8B-FP8"}[i%2], "RTX 4090", "vLLM", run.Valid,
					float64(100+w*each+i), 100, i)
				r.Engine.Version = fmt.Sprintf("0.%d.0", (i+w)%5)
				id, _, err := s.InsertRun(ctx, r, fmt.Sprintf("w%d/%d", w, i), nil)
				if err != nil {
					t.Error(err)
					return
				}
				if i%4 == 3 {
					if err := s.HideRun(ctx, id); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if err := stopFolding(); err != nil {
		t.Fatal(err)
	}
	setups, err := s.SetupsWithHistory(ctx, bests.KindHardware, "rtx-4090-24gb", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range setups {
		got = append(got, fmt.Sprint([]any{st.Model, st.Hardware, st.Engine, st.Quantization, int64(st.Versions)}))
	}
	rows, _ := conn.Query(ctx, bests.VersionsSetupsWithHistorySQL("hardware_slug"), "rtx-4090-24gb", 10)
	want, err := collectLines(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Errorf("links:\n%s\nwant two, grouped from history_versions:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	kept := storetest.DumpTable(t, dbURL, "history_setups")
	if err := bests.RebuildAllBest(ctx, s.Bests); err != nil {
		t.Fatal(err)
	}
	if rebuilt := storetest.DumpTable(t, dbURL, "history_setups"); !slices.Equal(kept, rebuilt) {
		t.Errorf("history_setups kept:\n%s\nrebuilt from every run:\n%s", strings.Join(kept, "\n"), strings.Join(rebuilt, "\n"))
	}
}
