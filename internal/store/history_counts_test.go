package store_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestHistoryCountsDoNotSerialiseUploads holds one upload of a setup and
// version open, with every lock it takes, and wants two more uploads of the
// same setup and version to commit meanwhile: the version's count is a
// delta, not an update of its history_versions row. The history's reads
// must count exactly the committed runs before the fold (the pending
// deltas added: the quantizations' order turns on them) and after it, and
// the kept rows must be what a rebuild derives.
func TestHistoryCountsDoNotSerialiseUploads(t *testing.T) {
	_, dbURL := dbtest.New(t)
	s := storetest.OpenWide(t, dbURL, 4)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	upload := func(quant, version string, total float64, min int) *run.Run {
		r := storetest.CellRun("Qwen/Qwen3-8B", "RTX 4090", "vLLM", run.Valid, total, 50, min)
		r.Engine.Quantization, r.Engine.Version = quant, version
		return r
	}
	// Settled before the load: AWQ has two runs, FP8 one; both versions'
	// rows exist and are folded.
	var ids []string
	for i, r := range []*run.Run{upload("AWQ", "0.9.0", 300, 1), upload("AWQ", "0.8.0", 300, 2), upload("FP8", "0.9.0", 300, 3)} {
		ids = append(ids, storetest.MustInsertRun(t, s, r, fmt.Sprint("settled", i)))
	}
	if _, err := s.FoldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	quantizations := func(when string, want ...string) {
		t.Helper()
		opts, err := s.HistoryChoices(ctx, store.HistoryQuery{Model: "qwen3-8b", Hardware: "rtx-4090-24gb", Engine: "vllm"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(opts.Quantizations, want) {
			t.Errorf("%s: quantizations %v, want %v", when, opts.Quantizations, want)
		}
	}
	quantizations("settled", "awq", "fp8")

	// The held upload takes the setup's bests (history_cells, best_cells)
	// so the others, slower, have nothing to offer there: what is left in
	// common is the version's count.
	opened, release, held := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	var heldID string // read after held answers
	go func() {
		var err error
		heldID, err = store.InsertRunHeld(ctx, s, upload("FP8", "0.9.0", 500, 4), "held", func() {
			close(opened)
			<-release
		})
		held <- err
	}()
	select {
	case <-opened:
	case err := <-held:
		t.Fatalf("the held upload failed: %v", err)
	}
	for i := range 2 {
		wait, cancel := context.WithTimeout(ctx, 5*time.Second)
		id, _, err := s.InsertRun(wait, upload("FP8", "0.9.0", 100, 5+i), fmt.Sprint("beside", i), nil)
		cancel()
		if err != nil {
			close(release)
			<-held
			t.Fatalf("an upload of the same setup and version beside the open one: %v", err)
		}
		ids = append(ids, id)
	}
	// FP8 has three committed runs now, two of them pending: it leads.
	quantizations("pending, one upload open", "fp8", "awq")
	checkHistoryAnswers(t, s, conn, ids, "pending, one upload open")
	close(release)
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	ids = append(ids, heldID)
	checkHistoryAnswers(t, s, conn, ids, "all committed, pending")
	if _, err := s.FoldCounts(ctx); err != nil {
		t.Fatal(err)
	}
	quantizations("folded", "fp8", "awq")
	checkHistoryAnswers(t, s, conn, ids, "folded")
	if got := storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM browse_count_deltas`); got != 0 {
		t.Errorf("%d deltas left after the fold", got)
	}
	kept := [][]string{storetest.DumpTable(t, dbURL, "history_versions"), storetest.DumpTable(t, dbURL, "history_setups")}
	if err := store.RebuildAllBest(ctx, s); err != nil {
		t.Fatal(err)
	}
	for i, table := range []string{"history_versions", "history_setups"} {
		if rebuilt := storetest.DumpTable(t, dbURL, table); !slices.Equal(kept[i], rebuilt) {
			t.Errorf("%s kept:\n%v\nrebuilt:\n%v", table, kept[i], rebuilt)
		}
	}
}

// checkHistoryAnswers wants every history read to answer as the old reads
// from the runs do.
func checkHistoryAnswers(t *testing.T, s *store.Store, conn *pgx.Conn, ids []string, when string) {
	t.Helper()
	got, want := storetest.HistoryAnswers(t, s, conn, ids)
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: %s, want %s", when, got[i], want[i])
		}
	}
}
