package store_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestRunListsBreakTiesAlike stores runs uploaded in one microsecond and
// wants every list of runs, newest first, to give them in descending id:
// the home page's, /runs and a run's comparison candidates read one index
// (runs_newest_idx), the sitemap an index of its own read the same way, and
// all must agree on the order within a tie.
func TestRunListsBreakTiesAlike(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var ids []string
	for _, key := range []string{"tie-a", "tie-b", "tie-c", "tie-d", "tie-e"} {
		r := storetest.FullRun()
		r.UploadedAt, r.Demo = at, false // the sitemap lists no demo run
		ids = append(ids, storetest.MustInsertRun(t, s, r, key))
	}
	want := slices.Clone(ids)
	slices.SortFunc(want, func(a, b string) int { return strings.Compare(b, a) })

	recent, err := s.ListRecent(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recent {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("ListRecent = %v, want descending ids %v", got, want)
	}

	items, _, err := s.ListRuns(ctx, store.RunFilter{}, store.SortNewest, nil, 10)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, r := range items {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("ListRuns(newest) = %v, want descending ids %v", got, want)
	}

	sitemap, err := s.SitemapRuns(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, r := range sitemap {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("SitemapRuns = %v, want descending ids %v", got, want)
	}

	sameModel, sameHardware, err := s.CompareCandidates(ctx, want[0], 10)
	if err != nil {
		t.Fatal(err)
	}
	for name, list := range map[string][]string{"same model": idsOfRuns(sameModel), "same hardware": idsOfRuns(sameHardware)} {
		if !slices.Equal(list, want[1:]) {
			t.Errorf("CompareCandidates(%s) %s = %v, want %v", want[0], name, list, want[1:])
		}
	}
}

// idsOfRuns is the runs' ids in order.
func idsOfRuns(runs []*run.Run) []string {
	var ids []string
	for _, r := range runs {
		ids = append(ids, r.ID)
	}
	return ids
}
