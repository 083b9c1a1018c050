package bests_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
)

// The scale benchmark (docs/scale.md): the database time of the
// browse pages with 1,000 and with 100,000 runs. It needs two databases
// loaded beforehand with `speedmatrix demo --runs N` and is skipped
// without them:
//
//	SCALE_DB_1K=postgres://…/sm_scale_1k SCALE_DB_100K=postgres://…/sm_scale_100k \
//	SCALE_EXPLAIN=/tmp/plans go test -run '^$' -bench BenchmarkScale -benchtime 40x ./internal/store
//
// Each page calls the store methods its handler calls, in order, with the
// handler's limits (web/browse*.go); ms/median is the median of the
// iterations' wall times. With SCALE_EXPLAIN set, every query a page runs
// is written with its EXPLAIN (ANALYZE, BUFFERS) to DIR/PAGE-DB.txt.

// Limits and grid points of the handlers (web/browse*.go).
const (
	scaleRunsPage    = 50  // runsPageSize
	scaleLeaderboard = 100 // leaderboardSize
	scaleEntityRuns  = 20  // entityRuns
	scaleChoices     = 500 // maxChoices
)

var scalePoints = []bests.GridPoint{{Context: 0, Concurrency: 1}, {Context: 0, Concurrency: 8}, {Context: 0, Concurrency: 32},
	{Context: 32768, Concurrency: 1}, {Context: 32768, Concurrency: 8}, {Context: 131072, Concurrency: 1}}

// scalePage is one page's database work.
type scalePage struct {
	name string
	fn   func(ctx context.Context, s *bests.Bests) error
}

// filterForm is what every filtered page reads for its choices.
func filterForm(ctx context.Context, s *bests.Bests) error {
	_, err := s.IdentityLists(ctx, []string{bests.KindModelBase, bests.KindModel, bests.KindHardware, bests.KindEngine,
		bests.KindQuantization, bests.KindSubmitter}, scaleChoices)
	return err
}

// entity is an entity page: name, newest runs, bests, links across.
func entity(ctx context.Context, s *bests.Bests, kind, slug string, f bests.RunFilter, links ...string) error {
	if _, err := s.IdentityName(ctx, kind, slug); err != nil {
		return err
	}
	if _, _, err := s.ListRuns(ctx, f, bests.SortNewest, nil, scaleEntityRuns); err != nil {
		return err
	}
	if _, err := s.BestAt(ctx, kind, slug, scalePoints); err != nil {
		return err
	}
	_, err := s.SeenWith(ctx, kind, slug, links)
	return err
}

// scalePages are the four pages whose time docs/scale.md holds to 1.5×, with the
// hardware and base model most runs of the 1k database have (the 100k
// database holds the same first 1,000 runs).
func scalePages(hardware, model string) []scalePage {
	return []scalePage{
		{"runs", func(ctx context.Context, s *bests.Bests) error {
			if _, _, err := s.ListRuns(ctx, bests.RunFilter{}, bests.SortNewest, nil, scaleRunsPage); err != nil {
				return err
			}
			return filterForm(ctx, s)
		}},
		{"leaderboard", func(ctx context.Context, s *bests.Bests) error {
			if _, err := s.Leaderboard(ctx, bests.LeaderQuery{Context: 0, Concurrency: 1, Metric: bests.MetricTotal,
				Limit: scaleLeaderboard}); err != nil {
				return err
			}
			return filterForm(ctx, s)
		}},
		{"hardware", func(ctx context.Context, s *bests.Bests) error {
			return entity(ctx, s, bests.KindHardware, hardware, bests.RunFilter{Hardware: hardware},
				bests.KindEngine, bests.KindModelBase)
		}},
		{"models", func(ctx context.Context, s *bests.Bests) error {
			// /models/{slug} asks for a variant first, then the base.
			if _, err := s.IdentityName(ctx, bests.KindModel, model); err != nil && !errors.Is(err, store.ErrNotFound) {
				return err
			}
			return entity(ctx, s, bests.KindModelBase, model, bests.RunFilter{Model: model},
				bests.KindHardware, bests.KindEngine, bests.KindModel)
		}},
	}
}

// recorder keeps the SQL and arguments of the queries a page runs.
type recorder struct {
	mu      sync.Mutex
	on      bool
	queries []pgx.TraceQueryStartData
}

func (r *recorder) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.queries = append(r.queries, d)
	}
	return ctx
}

func (r *recorder) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func BenchmarkScale(b *testing.B) {
	dbs := []struct{ name, url string }{{"1k", os.Getenv("SCALE_DB_1K")}, {"100k", os.Getenv("SCALE_DB_100K")}}
	if dbs[0].url == "" || dbs[1].url == "" {
		b.Skip("SCALE_DB_1K and SCALE_DB_100K name databases loaded by `speedmatrix demo` (docs/scale.md)")
	}
	ctx := context.Background()
	hardware, model := mostRun(b, dbs[0].url)
	b.Logf("hardware %s, model %s", hardware, model)
	for _, db := range dbs {
		rec := &recorder{}
		s, err := bests.OpenTraced(ctx, db.url, rec)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		for _, p := range scalePages(hardware, model) {
			b.Run(p.name+"/"+db.name, func(b *testing.B) {
				var took []time.Duration
				for b.Loop() {
					start := time.Now()
					if err := p.fn(ctx, s); err != nil {
						b.Fatal(err)
					}
					took = append(took, time.Since(start))
				}
				slices.Sort(took)
				b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms/median")
			})
			if dir := os.Getenv("SCALE_EXPLAIN"); dir != "" {
				explainPage(ctx, b, s, rec, p, filepath.Join(dir, p.name+"-"+db.name+".txt"), db.url)
			}
		}
	}
}

// mostRun is the hardware and the base model with the most runs.
func mostRun(b *testing.B, url string) (hardware, model string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	for col, dst := range map[string]*string{"hardware_slug": &hardware, "model_base_slug": &model} {
		err := conn.QueryRow(ctx, `SELECT `+col+` FROM runs GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`).Scan(dst)
		if err != nil {
			b.Fatal(err)
		}
	}
	return hardware, model
}

// explainPage runs the page once recording its queries, and writes each
// with its EXPLAIN (ANALYZE, BUFFERS) to path.
func explainPage(ctx context.Context, b *testing.B, s *bests.Bests, rec *recorder, p scalePage, path, url string) {
	rec.mu.Lock()
	rec.on, rec.queries = true, nil
	rec.mu.Unlock()
	err := p.fn(ctx, s)
	rec.mu.Lock()
	rec.on = false
	queries := rec.queries
	rec.mu.Unlock()
	if err != nil {
		b.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var out strings.Builder
	for i, q := range queries {
		fmt.Fprintf(&out, "-- query %d of %s\n%s\n-- args %v\n", i+1, p.name, strings.TrimSpace(q.SQL), q.Args)
		rows, _ := conn.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+q.SQL, q.Args...)
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			b.Fatalf("EXPLAIN %s: %v", q.SQL, err)
		}
		out.WriteString(strings.Join(lines, "\n") + "\n\n")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
		b.Fatal(err)
	}
}
