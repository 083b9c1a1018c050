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
// 100,000 runs, on databases loaded beforehand with `speedmatrix demo
// --runs N` (skipped without them), for the hardware with the most best
// cells in each, and for the one busiest in the small one asked of both:
//
//	SCALE_DB_1K=postgres://…/sm_scale_1k SCALE_DB_100K=postgres://…/sm_scale_100k \
//	go test -run '^$' -bench BenchmarkPlanScale -benchtime 20x ./internal/store
//
// One iteration is what the page asks of the database: PlanSetups, then
// PlanRuns of the setups the answer shows. ms/median is the median of the
// iterations' wall times; setups counts the hardware's setups, shown
// those the answer lists.
func BenchmarkPlanScale(b *testing.B) {
	dbs := []struct{ name, env string }{{"1k", "SCALE_DB_1K"}, {"100k", "SCALE_DB_100K"}}
	ctx := context.Background()
	var small string
	for _, d := range dbs {
		url := os.Getenv(d.env)
		if url == "" {
			b.Skipf("%s not set", d.env)
		}
		s, err := store.Open(ctx, url)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		var busiest string
		if err := store.QueryRow(ctx, s, `SELECT hardware_slug FROM best_cells WHERE metric = 'total_tps'
			GROUP BY hardware_slug ORDER BY count(*) DESC LIMIT 1`).Scan(&busiest); err != nil {
			b.Fatal(err)
		}
		if small == "" {
			small = busiest
		}
		for _, hw := range slices.Compact([]string{small, busiest}) {
			b.Run(d.name+"/"+hw, func(b *testing.B) {
				r := plan.Request{Hardware: hw, Context: 20000, MinUserTPS: 20}
				var times []time.Duration
				for i := 0; i < b.N; i++ {
					start := time.Now()
					setups, err := s.PlanSetups(ctx, hw, r.Context, r.MinUserTPS)
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
					if _, err := s.PlanRuns(ctx, cells); err != nil {
						b.Fatal(err)
					}
					times = append(times, time.Since(start))
					b.ReportMetric(float64(len(setups)), "setups")
					b.ReportMetric(float64(len(a.Shown())), "shown")
				}
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms/median")
			})
		}
	}
}
