package site_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestReplicaInstances: two servers reading from a streaming replica
// (DATABASE_READ_URL), each with its page cache warm from the replica.
// With the replica's replay paused (the worst of lags), the instance that
// answered 201 shows the new run at once, and the other, hearing of the
// change, lists it within a second: had it rebuilt its page from the
// paused replica, it would have kept that stale page until the next
// change. Once replay resumes, reads go to the replica again; with the
// replica stopped, both still serve fresh pages from the primary.
func TestReplicaInstances(t *testing.T) {
	rep := dbtest.NewReplicated(t)
	a, b := newReplicaInstance(t, rep.URL, rep.ReadURL), newReplicaInstance(t, rep.URL, rep.ReadURL)
	waitReplica(t, rep)
	for _, s := range []*webtest.Site{a, b} {
		s.Get(t, "/runs")
		s.Get(t, "/")
		if st := s.Store.ReadStats(); st.Replica == 0 {
			t.Fatalf("pages warmed with the replica caught up, no read went to it: %+v", st)
		}
	}

	replicaSQL(t, rep, "SELECT pg_wal_replay_pause()")
	id := uploadFresh(t, a, b, "benchmark_results_0.7.8.json")
	for _, s := range []*webtest.Site{a, b} {
		if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 200 {
			t.Errorf("report with the replica paused = %d", resp.StatusCode)
		}
	}
	replicaSQL(t, rep, "SELECT pg_wal_replay_resume()")
	waitReplica(t, rep)
	before := b.Store.ReadStats()
	if resp, _ := b.Get(t, "/leaderboard"); resp.StatusCode != 200 {
		t.Fatalf("leaderboard = %d", resp.StatusCode)
	}
	if st := b.Store.ReadStats(); st.Replica == before.Replica {
		t.Errorf("replay resumed and caught up, but the leaderboard was not read from the replica: %+v", st)
	}

	if err := rep.Replica.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	uploadFresh(t, a, b, "benchmark_results_0.4.18.json")
	if st := b.Store.ReadStats(); st.Down+st.Retried == 0 {
		t.Errorf("replica stopped, but no read was counted as falling back to the primary: %+v", st)
	}
}

// uploadFresh uploads a test document on a, expects a to list the new run
// at once and b within a second, and returns its id.
func uploadFresh(t *testing.T, a, b *webtest.Site, file string) string {
	t.Helper()
	resp, out := a.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/"+file))
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	id := out["id"].(string)
	listed := func(s *webtest.Site) func() bool {
		return func() bool { _, body := s.Get(t, "/runs"); return strings.Contains(body, "/runs/"+id) }
	}
	if !listed(a)() {
		t.Error("the instance that answered 201 served /runs without the new run")
	}
	if took, ok := within(time.Second, listed(b)); !ok {
		t.Error("the other instance did not list the new run within 1 s: it kept a page older than the change")
	} else {
		t.Logf("other instance fresh after %v", took)
	}
	return id
}

// replicaSQL runs one statement on the replica.
func replicaSQL(t *testing.T, rep *dbtest.Replicated, sql string) {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), rep.ReadURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(t.Context(), sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// waitReplica waits until the replica has replayed all the primary wrote.
func waitReplica(t *testing.T, rep *dbtest.Replicated) {
	t.Helper()
	lsn := func(url, sql string) (n int64) {
		conn, err := pgx.Connect(t.Context(), url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		if err := conn.QueryRow(t.Context(), sql).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	target := lsn(rep.URL, "SELECT (pg_current_wal_flush_lsn() - '0/0')::bigint")
	if _, ok := within(5*time.Second, func() bool {
		return lsn(rep.ReadURL, "SELECT (pg_last_wal_replay_lsn() - '0/0')::bigint") >= target
	}); !ok {
		t.Fatal("the replica did not catch up within 5 s")
	}
}

// TestMetricsReads: where the store's reads went is one counter, by the
// database that answered and why.
func TestMetricsReads(t *testing.T) {
	m := site.NewMetrics()
	m.WatchReads(func() store.ReadStats { return store.ReadStats{Replica: 7, Behind: 2, Down: 1, Retried: 3, Primary: 5} })
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{
		`speedmatrix_db_reads_total{reason="caught_up",target="replica"} 7`,
		`speedmatrix_db_reads_total{reason="behind",target="primary"} 2`,
		`speedmatrix_db_reads_total{reason="down",target="primary"} 1`,
		`speedmatrix_db_reads_total{reason="retried",target="primary"} 3`,
		`speedmatrix_db_reads_total{reason="primary_only",target="primary"} 5`,
	} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
