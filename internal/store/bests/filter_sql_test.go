package bests_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
)

// recordedSQL returns the text of the queries rec recorded that contain
// marker, and forgets every query recorded so far.
func recordedSQL(rec *recorder, marker string) []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []string
	for _, q := range rec.queries {
		if strings.Contains(q.SQL, marker) {
			out = append(out, q.SQL)
		}
	}
	rec.queries = nil
	return out
}

// everyFilter sets every field of a run filter; the values are marked so
// that the test can see none of them reaches the SQL text.
var everyFilter = bests.RunFilter{Model: "vv-model", Hardware: "vv-hardware", Engine: "vv-engine",
	EngineVersion: "vv-version", Quantization: "vv-quant", Submitter: "vv-submitter"}

// TestFilterSQLIsStable calls the runs list and the leaderboard (each of
// its forms: from best_cells, from version_best_cells, from
// submitter_best_cells, and from the runs' own cells) many times with
// many filters set at once: each must send one SQL text, always the same,
// so that PostgreSQL reuses one plan, with every value a placeholder.
func TestFilterSQLIsStable(t *testing.T) {
	_, dbURL := dbtest.New(t)
	ctx := context.Background()
	rec := &recorder{on: true}
	s, err := bests.OpenTraced(ctx, dbURL, rec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	after := &bests.Cursor{Key: 1, At: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), ID: "vv-cursor"}
	grouped := everyFilter
	grouped.EngineVersion, grouped.Submitter = "", "" // a group's own identities: best_cells
	versioned := everyFilter
	versioned.Submitter = "" // and the version: version_best_cells
	submitted := everyFilter
	submitted.EngineVersion = "" // and the submitter: submitter_best_cells
	calls := []struct {
		name, marker string
		columns      []string
		call         func() error
	}{
		{"ListRuns", "FROM runs r", []string{"model_slug", "hardware_slug", "engine_slug", "engine_version",
			"quantization_slug", "submitter_slug"}, func() error {
			_, _, err := s.ListRuns(ctx, everyFilter, bests.SortPeak, after, 20)
			return err
		}},
		{"Leaderboard from best_cells", "ORDER BY b.sort_value", []string{"model_slug", "hardware_slug",
			"engine_slug", "quantization_slug"}, func() error {
			_, err := s.Leaderboard(ctx, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Filter: grouped, Limit: 10})
			return err
		}},
		{"Leaderboard from version_best_cells", "FROM version_best_cells b", []string{"model_slug", "hardware_slug",
			"engine_slug", "engine_version", "quantization_slug"}, func() error {
			_, err := s.Leaderboard(ctx, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Filter: versioned, Limit: 10})
			return err
		}},
		{"Leaderboard from submitter_best_cells", "FROM submitter_best_cells b", []string{"model_slug", "hardware_slug",
			"engine_slug", "quantization_slug", "submitter_slug"}, func() error {
			_, err := s.Leaderboard(ctx, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Filter: submitted, Limit: 10})
			return err
		}},
		{"Leaderboard from the runs' cells", "ORDER BY b.sort_value", []string{"model_slug", "hardware_slug",
			"engine_slug", "engine_version", "quantization_slug", "submitter_slug"}, func() error {
			_, err := s.Leaderboard(ctx, bests.LeaderQuery{Metric: bests.MetricTotal, Concurrency: 1, Filter: everyFilter, Limit: 10})
			return err
		}},
	}
	const repeats = 40
	for _, c := range calls {
		for range repeats {
			if err := c.call(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		sqls := recordedSQL(rec, c.marker)
		if len(sqls) != repeats {
			t.Fatalf("%s: %d queries recorded, want %d", c.name, len(sqls), repeats)
		}
		if texts := slices.Compact(slices.Sorted(slices.Values(sqls))); len(texts) != 1 {
			t.Errorf("%s sent %d different SQL texts for the same filter, want 1; two of them:\n%s\n---\n%s",
				c.name, len(texts), texts[0], texts[1])
		}
		for _, col := range c.columns {
			if !strings.Contains(sqls[0], "."+col+" = ") {
				t.Errorf("%s: no condition on %s in\n%s", c.name, col, sqls[0])
			}
		}
		if strings.Contains(sqls[0], "vv-") {
			t.Errorf("%s: a value is written into the SQL text:\n%s", c.name, sqls[0])
		}
	}
}
