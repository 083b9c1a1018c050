package site_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// instance is one site.Server with a store (a pool) of its own, listening
// for the changes every instance announces, as `speedmatrix serve` does.
func newInstance(t *testing.T, dbURL string) *webtest.Site {
	t.Helper()
	return newReplicaInstance(t, dbURL, "")
}

// newReplicaInstance is newInstance reading from the replica at readURL
// (none when empty), as `speedmatrix serve` with DATABASE_READ_URL.
func newReplicaInstance(t *testing.T, dbURL, readURL string) *webtest.Site {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, err := store.OpenWithReplica(ctx, dbURL, readURL)
	if err != nil {
		t.Fatal(err)
	}
	listening := make(chan struct{}, 1)
	st.OnChange(func(c store.Change) {
		if c.Reset && c.Remote {
			select {
			case listening <- struct{}{}:
			default:
			}
		}
	})
	done := make(chan struct{})
	go func() { defer close(done); st.Listen(ctx, nil) }()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site.New(site.Config{Store: st, Bundle: b, Version: "test", Logger: slog.New(slog.DiscardHandler),
		Uploads: site.UploadPolicy{PerHourAddress: -1, PerHourToken: -1}}))
	t.Cleanup(func() { srv.Close(); cancel(); <-done; st.Close() })
	select {
	case <-listening:
	case <-time.After(5 * time.Second):
		t.Fatal("the instance does not listen for changes")
	}
	return &webtest.Site{Server: srv, Store: st, DBURL: dbURL}
}

// within polls cond every 10 ms for up to d and reports how long it took.
func within(d time.Duration, cond func() bool) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < d {
		if cond() {
			return time.Since(start), true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return d, cond()
}

// TestTwoInstancesFresh: two servers on one database, each with its page
// cache warm. The one that answered 201 shows the new run at once; the
// other within a second (PostgreSQL notifications); hiding a run on one
// makes its report 404 on both; and after the listening connection is cut,
// the reset on reconnecting catches what was announced meanwhile.
func TestTwoInstancesFresh(t *testing.T) {
	_, dbURL := dbtest.New(t)
	a, b := newInstance(t, dbURL), newInstance(t, dbURL)
	for _, s := range []*webtest.Site{a, b} {
		s.Get(t, "/runs")
		s.Get(t, "/")
	}
	doc := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	resp, out := a.Post(t, "application/json", doc)
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	id := out["id"].(string)
	listed := func(s *webtest.Site, path string) func() bool {
		return func() bool { _, body := s.Get(t, path); return strings.Contains(body, "/runs/"+id) }
	}
	if !listed(a, "/runs")() || !listed(a, "/")() {
		t.Error("the instance that answered 201 served a page without the new run")
	}
	if took, ok := within(time.Second, listed(b, "/runs")); !ok {
		t.Error("the other instance did not list the new run within 1 s")
	} else {
		t.Logf("other instance fresh after %v", took)
	}
	for _, s := range []*webtest.Site{a, b} {
		if resp, _ := s.Get(t, "/runs/"+id); resp.StatusCode != 200 {
			t.Fatalf("report = %d", resp.StatusCode)
		}
	}
	if err := b.Store.HideRun(t.Context(), id); err != nil {
		t.Fatal(err)
	}
	gone := func(s *webtest.Site) func() bool {
		return func() bool { resp, _ := s.Get(t, "/runs/"+id); return resp.StatusCode == 404 }
	}
	if !gone(b)() {
		t.Error("the hiding instance still serves the report")
	}
	if _, ok := within(time.Second, gone(a)); !ok {
		t.Error("the other instance still serves the hidden report after 1 s")
	}
	testReconnectResets(t, a, b)
}

// testReconnectResets cuts b's listening connection, uploads on a while b
// may not be listening, and expects b to catch up once it listens again.
func testReconnectResets(t *testing.T, a, b *webtest.Site) {
	b.Get(t, "/runs") // warm again
	conn, err := pgx.Connect(t.Context(), a.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tag, err := conn.Exec(t.Context(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
WHERE datname = current_database() AND query LIKE 'LISTEN %'`)
	if err != nil || tag.RowsAffected() != 2 {
		t.Fatalf("terminating the two listeners: %v, %v", tag, err)
	}
	resp, out := a.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.4.18.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d %v", resp.StatusCode, out)
	}
	id := out["id"].(string)
	if _, ok := within(3*time.Second, func() bool { _, body := b.Get(t, "/runs"); return strings.Contains(body, "/runs/"+id) }); !ok {
		t.Error("after its listening connection was cut, the other instance never listed the new run")
	}
}
