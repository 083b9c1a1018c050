package bests_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
	"github.com/speedmatrix/speedmatrix/migrations"
)

// submitterSlugs are the submitters of submitterRun's set: two with
// accounts, one without (a proven name all the same), and one nobody has.
var submitterSlugs = []string{"sandberg", "okafor", "lind", "nobody"}

// submitterQueries is every board filtered by a submitter of the set that
// submitterBoards compares: each submitter alone and with group filters,
// every metric, two grid points, valid and queued, without and with the
// flagged runs, short and long.
func submitterQueries() []bests.LeaderQuery {
	shapes := []struct {
		flagged bool
		limit   int
	}{{false, 50}, {true, 2}, {true, 50}}
	var qs []bests.LeaderQuery
	for _, sub := range submitterSlugs {
		for _, f := range []bests.RunFilter{{}, {Hardware: "rtx-3090-24gb"}, {Model: "qwen3-8b", Quantization: "awq"},
			{Engine: "vllm", Model: "qwen-qwen3-8b-fp8"}} {
			f.Submitter = sub
			for _, metric := range bests.Metrics {
				for _, cell := range [][2]int{{0, 1}, {8192, 4}} {
					for _, sh := range shapes {
						for _, queued := range []bool{false, true} {
							qs = append(qs, bests.LeaderQuery{Context: cell[0], Concurrency: cell[1], Metric: metric,
								Queued: queued, Filter: f, Limit: sh.limit, IncludeFlagged: sh.flagged})
						}
					}
				}
			}
		}
	}
	return qs
}

// checkSubmitterBoards wants every board of submitterQueries as
// Leaderboard answers it (from submitter_best_cells) to equal the board
// ranked from the matching runs' own cells, every field of every row, and
// enough of them to have rows for the comparison to mean something.
func checkSubmitterBoards(t *testing.T, s *store.Store, step string) {
	t.Helper()
	bad, filled, qs := 0, 0, submitterQueries()
	for _, q := range qs {
		got, want := boardLines(t, s, q), liveLines(t, s, q)
		if want != "" {
			filled++
		}
		if got != want {
			if bad++; bad <= 5 {
				t.Errorf("%s: %+v:\nfrom the table: %s\nranked from the runs' cells: %s", step, q, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d boards differ", step, bad, len(qs))
	}
	checkSubmitterBestAt(t, s, step)
	if filled < len(qs)/3 {
		t.Errorf("%s: %d of %d boards have a row; the fixture should fill more", step, filled, len(qs))
	}
}

// liveLines is q's board ranked from the runs' own cells, as boardLines
// writes it.
func liveLines(t *testing.T, s *store.Store, q bests.LeaderQuery) string {
	t.Helper()
	rows, err := s.Bests.LiveLeaderboard(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range rows {
		lines = append(lines, fmt.Sprintf("%+v", r))
	}
	return strings.Join(lines, " | ")
}

// checkSubmitterBestAt wants each submitter's best at each point, as its
// page shows it (BestAt), to be the first place of its valid total tok/s
// board ranked from the runs' own cells.
func checkSubmitterBestAt(t *testing.T, s *store.Store, step string) {
	t.Helper()
	ctx := context.Background()
	points := []bests.GridPoint{{Context: 0, Concurrency: 1}, {Context: 8192, Concurrency: 4}}
	for _, sub := range submitterSlugs {
		best, err := s.BestAt(ctx, bests.KindSubmitter, sub, points)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range points {
			rows, err := s.Bests.LiveLeaderboard(ctx, bests.LeaderQuery{Context: p.Context, Concurrency: p.Concurrency,
				Metric: bests.MetricTotal, Filter: bests.RunFilter{Submitter: sub}, Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			got, ok := best[p]
			switch {
			case len(rows) == 0 && ok:
				t.Errorf("%s: %s's best at %v is %+v; no run of theirs ranks there", step, sub, p, got)
			case len(rows) == 1 && fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", rows[0]):
				t.Errorf("%s: %s's best at %v is %+v, want %+v", step, sub, p, got, rows[0])
			}
		}
	}
}

// submitterRun is versionRun by one of the set's submitters, or (one in
// five) an anonymous upload of a recent time, which a claim may give to
// an account later.
func submitterRun(rng *rand.Rand, i int) *run.Run {
	r := versionRun(rng, i)
	switch n := rng.IntN(5); n {
	case 4:
		r.Submitter, r.SubmitterVerified = "someone", false
		r.UploadedAt = time.Now().UTC().Truncate(time.Second).Add(-time.Duration(i) * time.Minute)
	default:
		r.Submitter, r.SubmitterVerified = []string{"Sandberg", "Okafor", "Lind", "Sandberg"}[n], true
	}
	return r
}

// firstPlaces is the holders of the first place of sub's total and TTFT
// boards at 0×1, valid and queued.
func firstPlaces(t *testing.T, s *store.Store, sub string) map[string]bool {
	t.Helper()
	holders := map[string]bool{}
	for _, metric := range []string{bests.MetricTotal, bests.MetricTTFT} {
		for _, queued := range []bool{false, true} {
			q := bests.LeaderQuery{Concurrency: 1, Metric: metric, Queued: queued, Limit: 1,
				Filter: bests.RunFilter{Submitter: sub}}
			for _, id := range storetest.LeaderIDs(t, s, q) {
				holders[id] = true
			}
		}
	}
	return holders
}

// TestSubmitterBoardsMatchRuns stores a mixed set of runs of several
// submitters and anonymous ones (one by one and in a batch) and wants
// every board filtered by a submitter, read from submitter_best_cells, to
// equal the board ranked from the matching runs' own cells: after the
// uploads, after claims of anonymous runs, after hiding the holders of
// first places (a moderator's hide and the owner's), a show and a delete,
// after deriving two again (one loses its cells, one is flagged), after
// more uploads; and the table equal to a rebuild from every run and to
// the migration's own backfill.
func TestSubmitterBoardsMatchRuns(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	sandberg, err := s.CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	okafor, err := s.CreateAccount(ctx, "Okafor", "okafor@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(22, 5))
	ids := storetest.InsertBothWays(t, s, 160, "s", func(i int) *run.Run { return submitterRun(rng, i) })
	checkSubmitterBoards(t, s, "stored")

	claimSome(t, s, ids, map[int64]int{okafor: 6, sandberg: 3})
	checkSubmitterBoards(t, s, "claimed")
	checkShownSubmitters(t, s, "claimed")

	for id := range firstPlaces(t, s, "okafor") {
		if err := s.ModerateHideRun(ctx, id, "admin", "test"); err != nil {
			t.Fatal(err)
		}
	}
	checkSubmitterBoards(t, s, "okafor's first places hidden")
	storetest.HideThenShowAndDelete(t, s, sandberg, firstPlaces(t, s, "sandberg"), &ids,
		func(step string) { checkSubmitterBoards(t, s, step) }, "sandberg's first places hidden")

	q := bests.LeaderQuery{Concurrency: 1, Metric: bests.MetricTotal, Limit: 2, Filter: bests.RunFilter{Submitter: "lind"}}
	storetest.DeriveFailedAndFlagged(t, s, storetest.LeaderIDs(t, s, q))
	checkSubmitterBoards(t, s, "two derived again")

	for i := range 20 {
		storetest.MustInsertRun(t, s, submitterRun(rng, 200+i), fmt.Sprintf("later %d", i))
	}
	checkSubmitterBoards(t, s, "more uploads")

	// Every table of bests, since the claims changed what the others
	// show of their runs (bestShownColumns).
	tables := []string{"best_cells", "version_best_cells", "submitter_best_cells"}
	before := map[string][]string{}
	for _, table := range tables {
		if before[table] = storetest.DumpTable(t, dbURL, table); len(before[table]) == 0 {
			t.Fatalf("%s is empty", table)
		}
	}
	if err := s.RebuildBrowse(ctx); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if after := storetest.DumpTable(t, dbURL, table); !slices.Equal(before[table], after) {
			t.Errorf("the kept %s (%d rows) differs from a rebuild from every run (%d rows); first kept row not rebuilt: %s",
				table, len(before[table]), len(after), storetest.FirstMissing(before[table], after))
		}
	}
	checkSubmitterBoards(t, s, "rebuilt")

	// The last migration fills what the boards show from the runs rows.
	migrateLastDownUp(t, dbURL)
	for _, table := range tables {
		if after := storetest.DumpTable(t, dbURL, table); !slices.Equal(before[table], after) {
			t.Errorf("the kept %s (%d rows) differs from the migration's backfill (%d rows); first kept row not filled: %s",
				table, len(before[table]), len(after), storetest.FirstMissing(before[table], after))
		}
	}
}

// checkShownSubmitters wants the boards without a submitter filter, from
// best_cells and version_best_cells, to equal the boards ranked from the
// runs' own cells, every field of every row: after a claim their rows show
// the run's new submitter.
func checkShownSubmitters(t *testing.T, s *store.Store, step string) {
	t.Helper()
	for _, f := range []bests.RunFilter{{}, {EngineVersion: "0.8.0"}, {EngineVersion: "0.10.0"}} {
		for _, cell := range [][2]int{{0, 1}, {8192, 4}} {
			for _, metric := range bests.Metrics {
				for _, queued := range []bool{false, true} {
					q := bests.LeaderQuery{Context: cell[0], Concurrency: cell[1], Metric: metric, Queued: queued,
						Filter: f, Limit: 1000}
					if got, want := boardLines(t, s, q), liveLines(t, s, q); got != want {
						t.Errorf("%s: %+v:\nfrom the table: %s\nranked from the runs' cells: %s", step, q, got, want)
					}
				}
			}
		}
	}
}

// claimSome gives anonymous runs among ids to accounts, as many to each as
// claims says, through the claim cookie (SetClaim, ClaimRun).
func claimSome(t *testing.T, s *store.Store, ids []string, claims map[int64]int) {
	t.Helper()
	ctx := context.Background()
	i := 0
	for _, account := range slices.Sorted(maps.Keys(claims)) {
		for n := 0; n < claims[account]; i++ {
			if i == len(ids) {
				t.Fatalf("too few anonymous runs to claim")
			}
			r, err := s.GetRun(ctx, ids[i])
			if err != nil {
				t.Fatal(err)
			}
			if r.SubmitterVerified {
				continue
			}
			hash := accounts.Hash("cookie " + ids[i])
			if err := s.SetClaim(ctx, ids[i], hash); err != nil {
				t.Fatal(err)
			}
			if err := s.ClaimRun(ctx, ids[i], account, hash); err != nil {
				t.Fatalf("ClaimRun(%s): %v", ids[i], err)
			}
			n++
		}
	}
}

// migrateLastDownUp runs the last migration down and up again on the
// database at dbURL: its backfill from the stored runs.
func migrateLastDownUp(t *testing.T, dbURL string) {
	t.Helper()
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithSourceInstance("iofs", src, "pgx5"+strings.TrimPrefix(dbURL, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Steps(-1); err != nil {
		t.Fatal(err)
	}
	if err := m.Steps(1); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentSubmittersOneGroup uploads runs of one group by two
// submitters, eight at once, while a claim gives anonymous runs of the
// group to one of them: every upload must go in, and submitter_best_cells
// equal its rebuild from every run, and each submitter's boards the
// boards ranked from the runs' cells.
func TestConcurrentSubmittersOneGroup(t *testing.T) {
	_, dbURL := dbtest.New(t)
	const writers, uploads = 8, 12
	s := storetest.OpenWide(t, dbURL, writers+1)
	ctx := context.Background()
	okafor, err := s.CreateAccount(ctx, "Okafor", "okafor@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	var anonymous []string
	for i := range 6 {
		r := storetest.RoundRun(0, 300+i)
		r.Submitter, r.SubmitterVerified = "someone", false
		r.UploadedAt = time.Time{} // now: a claim is for a recent upload
		anonymous = append(anonymous, storetest.MustInsertRun(t, s, r, fmt.Sprintf("anonymous %d", i)))
	}
	var mu sync.Mutex
	var errs []error
	record := func(err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			<-start
			for i := range uploads {
				r := storetest.RoundRun(0, w*uploads+i) // one group, numbers that change hands
				r.Submitter = []string{"Okafor", "Lind"}[w%2]
				_, _, err := s.InsertRun(ctx, r, fmt.Sprintf("upload %d/%d", w, i), nil)
				record(err)
			}
		})
	}
	wg.Go(func() {
		<-start
		for _, id := range anonymous {
			hash := accounts.Hash("cookie " + id)
			record(s.SetClaim(ctx, id, hash))
			record(s.ClaimRun(ctx, id, okafor, hash))
		}
	})
	close(start)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	kept := storetest.DumpTable(t, dbURL, "submitter_best_cells")
	if err := bests.RebuildAllBest(ctx, s.Bests); err != nil {
		t.Fatal(err)
	}
	if rebuilt := storetest.DumpTable(t, dbURL, "submitter_best_cells"); !slices.Equal(kept, rebuilt) || len(kept) == 0 {
		t.Errorf("submitter_best_cells kept current (%d rows) differs from its rebuild (%d rows); first kept row not rebuilt: %s",
			len(kept), len(rebuilt), storetest.FirstMissing(kept, rebuilt))
	}
	for _, sub := range []string{"okafor", "lind"} {
		for _, metric := range bests.Metrics {
			q := bests.LeaderQuery{Concurrency: 1, Metric: metric, Limit: 10, Filter: bests.RunFilter{Submitter: sub}}
			got, want := boardLines(t, s, q), liveLines(t, s, q)
			if want == "" {
				t.Errorf("%s's %s board is empty", sub, metric)
			}
			if got != want {
				t.Errorf("%s's %s board:\nfrom the table: %s\nranked from the runs' cells: %s", sub, metric, got, want)
			}
		}
	}
}

// TestSubmitterBoardReadsItsIndex plans the boards filtered by a
// submitter, alone, with a group filter and with the flagged runs, as
// PostgreSQL keeps them for every later call (the generic plan) with
// sequential scans priced out, as a large table prices them, and wants
// each to read submitter_best_cells by its board index: not the runs'
// cells, whose read grew with the submitter's runs, nor the table whole.
func TestSubmitterBoardReadsItsIndex(t *testing.T) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	rec := &recorder{on: true}
	s, err := bests.OpenTraced(ctx, dbURL, rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	conn := storetest.RawConn(t, dbURL)
	if _, err := conn.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	for i, f := range []bests.RunFilter{{Submitter: "alice"}, {Submitter: "alice", Hardware: "rtx-4090-24gb"}} {
		for _, flagged := range []bool{false, true} {
			lq := bests.LeaderQuery{Metric: bests.MetricTotal, Context: 32768, Concurrency: 8, Filter: f,
				IncludeFlagged: flagged, Limit: 50}
			rec.mu.Lock()
			rec.queries = nil
			rec.mu.Unlock()
			if _, err := s.Leaderboard(ctx, lq); err != nil {
				t.Fatal(err)
			}
			var boards []pgx.TraceQueryStartData
			rec.mu.Lock()
			for _, q := range rec.queries {
				if strings.Contains(q.SQL, "ORDER BY b.sort_value") {
					boards = append(boards, q)
				}
			}
			rec.mu.Unlock()
			if len(boards) != 1 {
				t.Fatalf("%+v: %d boards asked for, want 1", lq, len(boards))
			}
			board := boards[0]
			name := fmt.Sprintf("submitter_board_%d_%v", i, flagged)
			if _, err := conn.Exec(ctx, "PREPARE "+name+" AS "+board.SQL); err != nil {
				t.Fatalf("%v\n%s", err, board.SQL)
			}
			rows, _ := conn.Query(ctx, "EXPLAIN EXECUTE "+name+"("+literals(t, board.Args)+")")
			lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatal(err)
			}
			plan := strings.Join(lines, "\n")
			if !strings.Contains(plan, "submitter_best_cells_board_idx") {
				t.Errorf("%+v: the plan does not read submitter_best_cells_board_idx:\n%s\nof\n%s", lq, plan, board.SQL)
			}
			// Only the flagged runs' own cells may be read, found by the
			// partial index on runs and each by decode_cells' key.
			if !flagged && strings.Contains(plan, "decode_cells") {
				t.Errorf("%+v: the plan reads the runs' cells:\n%s", lq, plan)
			}
		}
	}
}
