package store_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestGetSource(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	// Not UTF-8, with NULs: the bytes must come back exactly.
	body := []byte{0, 0xff, 0xfe, '{', '}', 0, '\r', '\n'}
	r := storetest.FullRun()
	id, _, err := s.InsertRun(ctx, r, "bytes", body)
	if err != nil {
		t.Fatal(err)
	}
	got, src, err := s.GetSource(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, body) || src != r.Source {
		t.Errorf("GetSource = %q, %+v; want %q, %+v", got, src, body, r.Source)
	}
	rev, err := s.RunRevision(ctx, id)
	if err != nil || rev != 1 {
		t.Errorf("RunRevision = %d, %v; want 1, nil", rev, err)
	}
}

func TestListRecentAndCount(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

	old := storetest.FullRun() // best valid cell: 101.5; the others are not valid
	old.UploadedAt = base
	oldID := storetest.MustInsertRun(t, s, old, "old")

	mid := storetest.FullRun() // a higher total_tps in a non-valid cell must not count
	mid.UploadedAt = base.Add(time.Hour)
	mid.Decode[1].TotalTPS = run.F(999)
	midID := storetest.MustInsertRun(t, s, mid, "mid")

	none := storetest.FullRun() // no valid cell at all
	none.UploadedAt = base.Add(2 * time.Hour)
	none.Decode[0].Status = run.Failed
	noneID := storetest.MustInsertRun(t, s, none, "none")

	list, err := s.ListRecent(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != noneID || list[1].ID != midID {
		t.Fatalf("ListRecent(2) = %+v, want ids %s, %s", list, noneID, midID)
	}
	if list[0].BestTotalTPS != nil {
		t.Errorf("BestTotalTPS without valid cells = %v, want nil", *list[0].BestTotalTPS)
	}
	if b := list[1].BestTotalTPS; b == nil || *b != 101.5 {
		t.Errorf("BestTotalTPS = %v, want 101.5 (valid cells only)", b)
	}
	got := list[1]
	if got.ModelID != mid.Model.ID || got.GPUName != "RTX 3060" || got.GPUCount != 2 || got.VRAMGB != 12.5 ||
		got.EngineName != "vllm" || got.EngineVersion != "0.32.0" || got.Quantization != "FP8 dynamic" ||
		got.Submitter != mid.Submitter || !got.UploadedAt.Equal(mid.UploadedAt) {
		t.Errorf("summary = %+v, does not match the run", got)
	}

	if all, _ := s.ListRecent(ctx, 10); len(all) != 3 || all[2].ID != oldID {
		t.Errorf("ListRecent(10) = %+v, want 3 runs ending with %s", all, oldID)
	}
	if n, err := s.CountRuns(ctx); n != 3 || err != nil {
		t.Errorf("CountRuns = %d, %v; want 3", n, err)
	}
}
