package bests_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// boundRun is a seed-sized run of group g (of a few) with random numbers:
// most of its offers lose to the bests stored before it, as in real use.
func boundRun(rng *rand.Rand, g int) *run.Run {
	r := storetest.RoundRun(g%3, 0)
	r.Engine.Version = fmt.Sprintf("0.%d.0", rng.IntN(2)) // two versions per group
	for i := range r.Decode {
		m := &r.Decode[i].Metrics
		m.TotalTPS = f(50 + rng.Float64()*100)
		m.PerRequestTPS = f(10 + rng.Float64()*50)
		m.TTFTms = f(5 + rng.Float64()*50)
	}
	return r
}

// scaledRun is r with its speeds times k and its latencies over k: k < 1
// makes every offer worse, k > 1 better.
func scaledRun(r *run.Run, k float64) *run.Run {
	w := *r
	w.Decode = slices.Clone(r.Decode)
	for i := range w.Decode {
		m := w.Decode[i].Metrics
		m.TotalTPS, m.PerRequestTPS, m.TTFTms = f(*m.TotalTPS*k), f(*m.PerRequestTPS*k), f(*m.TTFTms/k)
		w.Decode[i].Metrics = m
	}
	return &w
}

// checkBestsRebuilt wants every table of bests equal to its rebuild from
// the runs.
func checkBestsRebuilt(t *testing.T, s *store.Store, dbURL string) {
	t.Helper()
	tables := []string{"best_cells", "version_best_cells", "submitter_best_cells"}
	var kept [][]string
	for _, table := range tables {
		kept = append(kept, storetest.DumpTable(t, dbURL, table))
	}
	if err := bests.RebuildAllBest(context.Background(), s.Bests); err != nil {
		t.Fatal(err)
	}
	for i, table := range tables {
		if rebuilt := storetest.DumpTable(t, dbURL, table); !slices.Equal(kept[i], rebuilt) {
			t.Errorf("%s kept current (%d rows) differs from its rebuild (%d rows); first rebuilt row not kept: %s",
				table, len(kept[i]), len(rebuilt), storetest.FirstMissing(rebuilt, kept[i]))
		}
	}
}

// boundsWorld is the runs TestBoundsKeepBestsAcrossStores stored and
// what became of them, for its random changes.
type boundsWorld struct {
	t       *testing.T
	rng     *rand.Rand
	account int64               // Sandberg's, the owner of some runs
	runs    map[string]*run.Run // every run stored, by id
	visible [][]string          // visible runs by group
	hidden  []string            // Sandberg's runs hidden, which he may show
	group   map[string]int
	done    map[string]int // changes made, by kind
}

// upload stores r, of group g, through s.
func (w *boundsWorld) upload(s *store.Store, g int, r *run.Run, key string) string {
	id, _, err := s.InsertRun(context.Background(), r, key, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	w.runs[id], w.group[id] = r, g
	w.visible[g] = append(w.visible[g], id)
	return id
}

// change makes, through s, a change to visible run i of group g that may
// make its bests worse (a hide, Sandberg's delete, deriving it again with
// worse numbers) or better (a claim of an anonymous run by Sandberg, his
// show of a run hidden).
func (w *boundsWorld) change(s *store.Store, g, i int) {
	ctx := context.Background()
	if len(w.visible[g]) == 0 {
		return
	}
	id := w.visible[g][i]
	r := w.runs[id]
	owned := r.Submitter == "Sandberg"
	var err error
	switch op := w.rng.IntN(5); {
	case op == 0 && len(w.hidden) > 0:
		id, w.hidden = w.hidden[0], w.hidden[1:]
		err = s.SetOwnRunHidden(ctx, id, w.account, false)
		w.done["show"]++
		w.visible[w.group[id]] = append(w.visible[w.group[id]], id)
	case op == 1 && owned:
		err = s.DeleteOwnRun(ctx, id, w.account)
		w.done["delete"]++
		w.visible[g] = slices.Delete(w.visible[g], i, i+1)
	case op == 2 && !r.SubmitterVerified:
		hash := accounts.Hash("cookie " + id)
		if err = s.SetClaim(ctx, id, hash); err == nil {
			err = s.ClaimRun(ctx, id, w.account, hash)
		}
		r.Submitter, r.SubmitterVerified = "Sandberg", true
		w.done["claim"]++
	case op == 3:
		err = s.HideRun(ctx, id)
		w.done["hide"]++
		w.visible[g] = slices.Delete(w.visible[g], i, i+1)
		if owned {
			w.hidden = append(w.hidden, id)
		}
	default:
		w.runs[id] = scaledRun(r, 0.25)
		err = s.ReplaceDerived(ctx, id, w.runs[id])
		w.done["derive"]++
	}
	if err != nil {
		w.t.Fatal(err)
	}
}

// TestBoundsKeepBestsAcrossStores uploads random runs through two Stores
// on one database (some anonymous, some Sandberg's, some with another's
// numbers uploaded just before or after it) while either hides, shows,
// deletes, claims or derives them again with worse numbers, some of
// those between an upload's read of the epoch and its offers: the bests
// must equal a rebuild from the runs, though the Stores left out offers
// their bounds said could not win.
func TestBoundsKeepBestsAcrossStores(t *testing.T) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	stores := []*store.Store{storetest.OpenWide(t, dbURL, 2), storetest.OpenWide(t, dbURL, 2)}
	account, err := stores[0].CreateAccount(ctx, "Sandberg", "sandberg@example.com", "x")
	if err != nil {
		t.Fatal(err)
	}
	w := &boundsWorld{t: t, rng: rand.New(rand.NewPCG(7, 11)), account: account, runs: map[string]*run.Run{},
		visible: make([][]string, 3), group: map[string]int{}, done: map[string]int{}}
	rng := w.rng
	start := time.Now().UTC().Truncate(time.Second).Add(-time.Hour) // within a claim's window
	for n := range 200 {
		a, g := rng.IntN(2), rng.IntN(3)
		s, other := stores[a], stores[1-a]
		r := boundRun(rng, g)
		r.UploadedAt = start.Add(time.Duration(n) * time.Second)
		switch rng.IntN(3) {
		case 0:
			r.Submitter, r.SubmitterVerified = "someone", false
		case 1:
			r.Submitter = "Sandberg"
		}
		if rng.IntN(6) == 0 && len(w.visible[g]) > 0 {
			// Another's numbers, uploaded just before or just after it:
			// a tie in sort value, settled by the upload time.
			same := w.runs[w.visible[g][rng.IntN(len(w.visible[g]))]]
			r = scaledRun(same, 1)
			r.UploadedAt = same.UploadedAt.Add(time.Duration(rng.IntN(3)-1) * time.Millisecond)
		}
		if rng.IntN(5) == 0 {
			// A new top run of the group, then one just short of it whose
			// offers s marks, while the other Store makes the top worse
			// in the window: they must win.
			top := w.upload(s, g, scaledRun(r, 3), fmt.Sprintf("top %d", n))
			bests.SetAfterEpochRead(s.Bests, func() { w.change(other, g, slices.Index(w.visible[g], top)) })
			r = scaledRun(r, 2.9)
		}
		w.upload(s, g, r, fmt.Sprintf("bound %d", n))
		bests.SetAfterEpochRead(s.Bests, nil)
		if rng.IntN(6) == 0 {
			g := rng.IntN(3)
			w.change(stores[rng.IntN(2)], g, rng.IntN(max(1, len(w.visible[g]))))
		}
	}
	for _, kind := range []string{"show", "delete", "claim", "hide", "derive"} {
		if w.done[kind] == 0 {
			t.Errorf("no %s among the changes %v", kind, w.done)
		}
	}
	if m := bests.BoundsMarked(stores[0].Bests) + bests.BoundsMarked(stores[1].Bests); m < 1000 {
		t.Errorf("the bounds marked %d offers as unable to win; the test means most of them", m)
	}
	checkBestsRebuilt(t, stores[0], dbURL)
}

// TestBoundsRebuildInWindow has a best get worse, by a hide through
// another Store, after an upload read the epoch and marked its offer as
// unable to win: the offer statement must see the epoch moved and offer
// it, and it takes the best. It holds too when the database's default
// isolation is repeatable read, under which a transaction's one snapshot
// would be the epoch read's, taken before the hide: the upload's BEGIN
// names read committed.
func TestBoundsRebuildInWindow(t *testing.T) {
	for _, isolation := range []string{"", "repeatable read"} {
		t.Run("default "+isolation, func(t *testing.T) { boundsRebuildInWindow(t, isolation) })
	}
}

func boundsRebuildInWindow(t *testing.T, isolation string) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	if isolation != "" { // for the connections opened from now on
		u, err := url.Parse(dbURL)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		_, err = conn.Exec(ctx, fmt.Sprintf("ALTER DATABASE %s SET default_transaction_isolation = %s",
			pgx.Identifier{strings.TrimPrefix(u.Path, "/")}.Sanitize(), pgx.Identifier{isolation}.Sanitize()))
		conn.Close(ctx)
		if err != nil {
			t.Fatal(err)
		}
	}
	a, b := storetest.OpenWide(t, dbURL, 2), storetest.OpenWide(t, dbURL, 2)
	var got string
	err := bests.Transact(ctx, a.Bests, func(tx pgx.Tx) error {
		return tx.QueryRow(ctx, "SHOW default_transaction_isolation").Scan(&got)
	})
	if err != nil || (isolation != "" && got != isolation) {
		t.Fatalf("default_transaction_isolation = %q, %v; want %q", got, err, isolation)
	}
	cell := func(total float64, min int) *run.Run {
		return storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, total, 100, min)
	}
	best := storetest.MustInsertRun(t, a, cell(100, 1), "best")
	storetest.MustInsertRun(t, a, cell(50, 2), "worse") // a learns: the best is at least 100
	bests.SetAfterEpochRead(a.Bests, func() {
		if err := b.HideRun(ctx, best); err != nil {
			t.Error(err)
		}
	})
	winner := storetest.MustInsertRun(t, a, cell(80, 3), "now the best")
	bests.SetAfterEpochRead(a.Bests, nil)
	if bests.BoundsMarked(a.Bests) == 0 {
		t.Error("the third upload's offers were not marked: the test proves nothing")
	}
	if got := storetest.LeaderIDs(t, a, bests.LeaderQuery{Context: 0, Concurrency: 1, Metric: "total_tps"}); len(got) == 0 || got[0] != winner {
		t.Errorf("leaderboard %v, want %s first", got, winner)
	}
	checkBestsRebuilt(t, a, dbURL)
}

// TestBoundsLearnOnlyFromCommits makes an upload fail at its commit,
// after its offers (a deferred constraint): what it offered must not
// become a bound, so a later, slightly worse offer still takes the best.
func TestBoundsLearnOnlyFromCommits(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `
CREATE FUNCTION refuse_run() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON runs DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.submitter = 'refused') EXECUTE FUNCTION refuse_run()`); err != nil {
		t.Fatal(err)
	}
	cell := func(total float64, min int) *run.Run {
		return storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, total, 100, min)
	}
	storetest.MustInsertRun(t, s, cell(100, 1), "stored")
	refused := cell(150, 2)
	refused.Submitter, refused.SubmitterVerified = "refused", false
	if _, _, err := s.InsertRun(ctx, refused, "refused", nil); err == nil || !strings.Contains(err.Error(), "refused at commit") {
		t.Fatalf("the refused upload answered %v", err)
	}
	winner := storetest.MustInsertRun(t, s, cell(149, 3), "after the refused one")
	if got := storetest.LeaderIDs(t, s, bests.LeaderQuery{Context: 0, Concurrency: 1, Metric: "total_tps"}); len(got) == 0 || got[0] != winner {
		t.Errorf("leaderboard %v, want %s first", got, winner)
	}
	checkBestsRebuilt(t, s, dbURL)
}

// probeLoops matches the probe of a table of bests in EXPLAIN ANALYZE's
// text: an index scan of table o, and how often it ran.
var probeLoops = regexp.MustCompile(`Scan using \w+ on \w*best_cells o \((?:actual rows=\d+ loops=(\d+)|never executed)`)

// TestBoundedOfferPlanSkipsProbes runs an upload's offer statement under
// EXPLAIN ANALYZE with every offer marked: at the stored epoch none
// reaches the probe of the table; at another every one does.
func TestBoundedOfferPlanSkipsProbes(t *testing.T) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var epoch int64
	if err := conn.QueryRow(ctx, `SELECT epoch FROM best_epoch`).Scan(&epoch); err != nil {
		t.Fatal(err)
	}
	const offers = `'{0,0,0}', '{1,2,4}', '{total_tps,total_tps,total_tps}', '{valid,valid,valid}', '{-1,-2,-3}',
        '{1,2,3}', 'm', 'b', 'h', 'e', 'q', true, 'a', '2026-12-01', 'v', 'S', 's'`
	for _, tc := range []struct {
		table int
		epoch int64
		want  string
	}{{0, epoch, "0"}, {0, epoch + 1, "3"}, {2, epoch, "0"}, {2, epoch + 1, "3"}} {
		params := offers
		sql := bests.BoundedOfferSQL(tc.table)
		plan := explainOffer(t, conn, sql, fmt.Sprintf("%s, '{true,true,true}', %d", params, tc.epoch))
		m := probeLoops.FindStringSubmatch(plan)
		if m == nil {
			t.Fatalf("no probe of a table of bests in\n%s", plan)
		}
		if got := cmp.Or(m[1], "0"); got != tc.want {
			t.Errorf("table %d, epoch %d (stored %d): the probe ran %s times, want %s\n%s",
				tc.table, tc.epoch, epoch, got, tc.want, plan)
		}
	}
}

// explainOffer is the EXPLAIN ANALYZE of sql with params, in a
// transaction rolled back.
func explainOffer(t *testing.T, conn *pgx.Conn, sql, params string) string {
	t.Helper()
	ctx := context.Background()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	// A generic plan, as a statement prepared long ago has.
	if _, err := tx.Exec(ctx, "SET LOCAL plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "PREPARE offer AS "+sql); err != nil {
		t.Fatalf("%v\n%s", err, sql)
	}
	defer conn.Exec(ctx, "DEALLOCATE offer")
	rows, _ := tx.Query(ctx, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE offer("+params+")")
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// TestBoundsOutliveARefusedUpload: an upload refused for what its
// document says (a declared name that is an account's handle) leaves the
// Store's bounds as they were, so a later worse offer is still marked;
// only a failure that may mean another database drops them.
func TestBoundsOutliveARefusedUpload(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	if _, err := s.CreateAccount(ctx, "Okafor", "okafor@example.com", "x"); err != nil {
		t.Fatal(err)
	}
	cell := func(total float64, min int) *run.Run {
		return storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, total, 100, min)
	}
	storetest.MustInsertRun(t, s, cell(100, 1), "best")
	storetest.MustInsertRun(t, s, cell(50, 2), "learns") // the bounds hold 100
	refused := cell(40, 3)
	refused.Submitter, refused.SubmitterVerified = "okafor", false
	if _, _, err := s.InsertRun(ctx, refused, "refused", []byte("refused")); err == nil {
		t.Fatal("a declared account handle was stored")
	} else if _, ok := problem.As(err); !ok {
		t.Fatalf("refusal %v is not a problem", err)
	}
	before := bests.BoundsMarked(s.Bests)
	storetest.MustInsertRun(t, s, cell(30, 4), "worse")
	if bests.BoundsMarked(s.Bests) == before {
		t.Error("after a refused upload the bounds marked nothing: they were dropped")
	}
}

// TestUploadReadsTheStoredEpoch: the epoch an upload reads beside its
// insert is best_epoch's, after each rebuild bumped it: with any other
// (one off), the bounds would mark offers that the statement then offers
// anyway, and every upload would probe the tables of bests again.
func TestUploadReadsTheStoredEpoch(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	for i := range 3 {
		r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, float64(100+i), 100, i)
		id := storetest.MustInsertRun(t, s, r, fmt.Sprintf("epoch-%d", i))
		var stored int64
		if err := conn.QueryRow(ctx, `SELECT epoch FROM best_epoch`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if got, known := bests.BoundsEpoch(s.Bests); !known || got != stored {
			t.Errorf("upload %d read epoch %d (known %v), best_epoch holds %d", i, got, known, stored)
		}
		if err := s.HideRun(ctx, id); err != nil { // a rebuild: the epoch moves on
			t.Fatal(err)
		}
	}
}
