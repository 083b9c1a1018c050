package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// openReplicated opens a store on rep's primary with its replica for reads.
func openReplicated(t *testing.T, rep *dbtest.Replicated) *store.Store {
	t.Helper()
	s, err := store.OpenWithReplica(t.Context(), rep.URL, rep.ReadURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// replay pauses (false) or resumes (true) the replica's replay of the
// primary's WAL; the WAL is still received meanwhile.
func replay(t *testing.T, rep *dbtest.Replicated, on bool) {
	t.Helper()
	sql := "SELECT pg_wal_replay_pause()"
	if on {
		sql = "SELECT pg_wal_replay_resume()"
	}
	storetest.MustExec(t, rep.ReadURL, sql)
}

// waitCaughtUp waits until the replica has replayed everything the
// primary has written.
func waitCaughtUp(t *testing.T, rep *dbtest.Replicated) {
	t.Helper()
	target := storetest.MustQueryInt(t, rep.URL, "SELECT (pg_current_wal_flush_lsn() - '0/0')::bigint")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if storetest.MustQueryInt(t, rep.ReadURL, "SELECT (pg_last_wal_replay_lsn() - '0/0')::bigint") >= target {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the replica did not catch up within 5 s")
		}
	}
}

// TestReplicaReadsAndLag: public reads go to the replica when it has
// replayed every change the store knows of; a run the store itself just
// stored is read at once although the replica has not replayed it (the
// primary answers); a run stored by another process, which this store
// has not heard of, is looked up on the primary when the replica lacks it.
func TestReplicaReadsAndLag(t *testing.T) {
	rep := dbtest.NewReplicated(t)
	s := openReplicated(t, rep)
	ctx := t.Context()
	first := storetest.MustInsertRun(t, s, storetest.SeedRun(), "first")
	waitCaughtUp(t, rep)
	before := s.ReadStats()
	if _, err := s.GetRun(ctx, first); err != nil {
		t.Fatal(err)
	}
	if got := s.ReadStats(); got.Replica != before.Replica+1 {
		t.Fatalf("a read with the replica caught up: stats %+v, then %+v; want one more replica read", before, got)
	}
	if n := storetest.MustQueryInt(t, rep.ReadURL, `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'speedmatrix-read'`); n == 0 {
		t.Error("no session named speedmatrix-read on the replica")
	}

	replay(t, rep, false)
	defer replay(t, rep, true)
	mine := storetest.MustInsertRun(t, s, storetest.SeedRun(), "mine")
	if _, err := s.GetRun(ctx, mine); err != nil {
		t.Fatalf("the run this store just stored, replica paused: %v", err)
	}
	if got := s.ReadStats(); got.Behind == before.Behind {
		t.Errorf("stats %+v: the read was not counted as sent to the primary for a lagging replica", got)
	}

	// Another process's write, not announced to s (it does not listen),
	// once the replica holds s's own: s reads the replica, which proves
	// where reads go, and a run the replica lacks is asked of the primary.
	w, err := store.Open(ctx, rep.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	replay(t, rep, true)
	waitCaughtUp(t, rep)
	replay(t, rep, false)
	theirs := storetest.MustInsertRun(t, w, storetest.SeedRun(), "theirs")
	list, err := s.ListRecent(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range list {
		if r.ID == theirs {
			t.Error("ListRecent saw a run the paused replica has not replayed: the read did not go to the replica")
		}
	}
	retried := s.ReadStats().Retried
	if _, err := s.GetRun(ctx, theirs); err != nil {
		t.Fatalf("a run the replica lacks is not retried on the primary: %v", err)
	}
	if s.ReadStats().Retried != retried+1 {
		t.Error("the retry on the primary was not counted")
	}
	if _, err := s.GetRun(ctx, "nosuchrun00"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a run nowhere: %v, want ErrNotFound", err)
	}
}

// TestReplicaDown: with the replica stopped, reads go to the primary and
// are counted as such; the first read that meets the dead replica is not
// lost.
func TestReplicaDown(t *testing.T) {
	rep := dbtest.NewReplicated(t)
	s := openReplicated(t, rep)
	id := storetest.MustInsertRun(t, s, storetest.SeedRun(), "k")
	waitCaughtUp(t, rep)
	if err := rep.Replica.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.GetRun(t.Context(), id); err != nil {
			t.Fatalf("with the replica down: %v", err)
		}
		if _, err := s.ListRecent(t.Context(), 5); err != nil {
			t.Fatalf("with the replica down: %v", err)
		}
	}
	if st := s.ReadStats(); st.Down+st.Retried == 0 {
		t.Errorf("stats %+v: no read counted as falling back from a replica that is down", st)
	}
}
