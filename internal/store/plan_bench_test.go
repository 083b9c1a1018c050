package store_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// BenchmarkPlanScale is the planner's database time with 1,000 and with
// 100,000 runs (and a million, with SCALE_DB_1M), on databases loaded
// beforehand with `speedmatrix demo --runs N` (skipped without the first
// two), for the hardware with the most best cells in each database, each
// asked of every database:
//
//	SCALE_DB_1K=postgres://…/scale_1k SCALE_DB_100K=postgres://…/scale_100k \
//	go test -run '^$' -bench BenchmarkPlanScale -benchtime 50x ./internal/store
//
// One iteration is what the team preset's page asks of the database:
// PlanSetups, then PlanRuns of the setups the answer lists. ms/median is
// the median of the iterations' wall times; setups counts the hardware's
// setups, cells the cells read for the setups listed.
func BenchmarkPlanScale(b *testing.B) {
	ctx := context.Background()
	type db struct {
		name    string
		s       *store.Store
		busiest string
	}
	var dbs []db
	for _, d := range []struct{ name, env string }{{"1k", "SCALE_DB_1K"}, {"100k", "SCALE_DB_100K"}, {"1m", "SCALE_DB_1M"}} {
		url := os.Getenv(d.env)
		if url == "" && d.name == "1m" {
			continue
		}
		if url == "" {
			b.Skipf("%s not set", d.env)
		}
		s, err := store.Open(ctx, url)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		x := db{name: d.name, s: s}
		if err := store.QueryRow(ctx, s, `SELECT hardware_slug FROM best_cells WHERE metric = 'total_tps'
			GROUP BY hardware_slug ORDER BY count(*) DESC LIMIT 1`).Scan(&x.busiest); err != nil {
			b.Fatal(err)
		}
		dbs = append(dbs, x)
	}
	var hardware []string
	for _, d := range dbs {
		hardware = append(hardware, d.busiest)
	}
	slices.Sort(hardware)
	for _, d := range dbs {
		for _, hw := range slices.Compact(hardware) {
			b.Run(d.name+"/"+hw, func(b *testing.B) {
				p, _ := plan.PresetNamed("team")
				r := plan.Request{Hardware: hw}.WithPreset(p)
				var times []time.Duration
				for i := 0; i < b.N; i++ {
					start := time.Now()
					setups, err := d.s.PlanSetups(ctx, hw, r.Context, r.MinUserTPS)
					if err != nil {
						b.Fatal(err)
					}
					a := plan.Measured(r, setups, true)
					var cells []plan.CellRef
					for _, st := range a.Shown() {
						if st.MaxUsers > 0 {
							cells = append(cells, plan.CellRef{RunID: st.RunID, Context: st.ContextUsed, Concurrency: st.MaxUsers})
						}
					}
					if _, err := d.s.PlanRuns(ctx, cells); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
					b.ReportMetric(float64(len(setups)), "setups")
					b.ReportMetric(float64(len(cells)), "cells")
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/median")
			})
		}
	}
}
