package bests_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestScaleWritesRenewExactly uploads, hides, shows, re-derives and deletes
// a run on a loaded database (SCALE_DB, e.g. a million demo runs; skipped
// without it) and wants, after each write, the run's group's rows in every
// table of bests to equal what its runs' cells give from scratch, its
// group's and its hardware's run counts to equal a count of its visible
// runs, and every other group's bests untouched. The run beats its group's
// best at every cell, so each write moves the group's bests. It leaves the
// database as it found it but for the deleted run's id (deleted_runs) and
// the test's submitter. Each write's time is logged (-v): docs/scale.md.
func TestScaleWritesRenewExactly(t *testing.T) {
	url := os.Getenv("SCALE_DB")
	if url == "" {
		t.Skip("SCALE_DB names a loaded database (docs/scale.md)")
	}
	ctx := context.Background()
	s, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conn := storetest.RawConn(t, url)

	// The run: a copy of the run at the top of the 0×1 board, twice as fast
	// at every cell, by a proven submitter (so that it may be deleted).
	var topID string
	if err := conn.QueryRow(ctx, `SELECT run_id FROM best_cells WHERE context = 0 AND concurrency = 1
AND metric = 'total_tps' AND status = 'valid' ORDER BY sort_value LIMIT 1`).Scan(&topID); err != nil {
		t.Fatal(err)
	}
	top, err := s.GetRun(ctx, topID)
	if err != nil {
		t.Fatal(err)
	}
	const handle = "scale-writes"
	if err := s.CreateSubmitter(ctx, handle, ""); err != nil && !errors.Is(err, store.ErrExists) {
		t.Fatal(err)
	}
	var account int64
	if err := conn.QueryRow(ctx, `SELECT id FROM submitters WHERE handle = $1`, handle).Scan(&account); err != nil {
		t.Fatal(err)
	}
	r := *top
	r.ID, r.Submitter, r.SubmitterVerified, r.UploadedAt = "", handle, true, time.Now()
	r.Decode = slices.Clone(top.Decode)
	for i := range r.Decode {
		if v := r.Decode[i].TotalTPS; v != nil {
			faster := *v * 2
			r.Decode[i].TotalTPS = &faster
		}
	}
	var group [5]any
	var hw, version string
	if err := conn.QueryRow(ctx, `SELECT model_slug, hardware_slug, engine_slug, quantization_slug, demo, engine_version
FROM runs WHERE id = $1`, topID).Scan(&group[0], &group[1], &group[2], &group[3], &group[4], &version); err != nil {
		t.Fatal(err)
	}
	hw = group[1].(string)
	r.Demo = group[4].(bool)

	tables := bests.GroupBestsSQL()
	rows := func(sql string) []string { return storetest.MustStrings(t, conn, sql, group[:]...) }
	// elsewhere: every other group's rows, as a count and a sum of hashes.
	elsewhere := func() string {
		var out string
		for _, name := range slices.Sorted(maps.Keys(tables)) {
			var n, sum int64
			if err := conn.QueryRow(ctx, `SELECT count(*), coalesce(sum(hashtext(b::text)), 0) FROM `+name+` b
WHERE (model_slug, hardware_slug, engine_slug, quantization_slug, demo) IS DISTINCT FROM ($1, $2, $3, $4, $5)`,
				group[:]...).Scan(&n, &sum); err != nil {
				t.Fatal(err)
			}
			out += fmt.Sprintf("%s %d %d; ", name, n, sum)
		}
		return out
	}
	before, others := map[string][]string{}, elsewhere()
	for name, q := range tables {
		before[name] = rows(q[0])
	}
	check := func(step string) map[string][]string {
		t.Helper()
		now := map[string][]string{}
		for name, q := range tables {
			stored, derived := rows(q[0]), rows(q[1])
			if !slices.Equal(stored, derived) {
				t.Errorf("%s: %s holds %d rows for the group, its runs give %d; first missing: %v",
					step, name, len(stored), len(derived), storetest.FirstMissing(derived, stored))
			}
			now[name] = stored
		}
		if got := elsewhere(); got != others {
			t.Errorf("%s: other groups' bests changed: %s, were %s", step, got, others)
		}
		var groupRuns, hwRuns int64
		if err := conn.QueryRow(ctx, `SELECT
    (SELECT count(*) FROM runs WHERE (model_slug, hardware_slug, engine_slug, quantization_slug, demo, engine_version) =
        ($1, $2, $3, $4, $5, $6) AND NOT hidden),
    (SELECT count(*) FROM runs WHERE hardware_slug = $2 AND NOT hidden)`, append(group[:], version)...).Scan(&groupRuns, &hwRuns); err != nil {
			t.Fatal(err)
		}
		groups, err := s.Groups(ctx, bests.KindHardware, hw)
		if err != nil {
			t.Fatal(err)
		}
		var counted int64 = -1
		for _, g := range groups {
			if g.ModelSlug == group[0] && g.EngineSlug == group[2] && g.EngineVersion == version && g.QuantizationSlug == group[3] {
				counted = g.Runs
			}
		}
		if counted != groupRuns {
			t.Errorf("%s: the group counts %d runs, %d are visible", step, counted, groupRuns)
		}
		listed, err := s.CountIdentities(ctx, bests.KindHardware)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range listed {
			if c.Slug == hw && c.Runs != hwRuns {
				t.Errorf("%s: %s counts %d runs, %d are visible", step, hw, c.Runs, hwRuns)
			}
		}
		return now
	}
	timed := func(step string, write func() error) map[string][]string {
		t.Helper()
		start := time.Now()
		if err := write(); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		t.Logf("%s: %v", step, time.Since(start).Round(100*time.Microsecond))
		return check(step)
	}
	check("before")
	var id string
	uploaded := timed("upload", func() (err error) {
		id, _, err = s.InsertRun(ctx, &r, fmt.Sprintf("scale-writes:%d", time.Now().UnixNano()), []byte("{}"))
		return err
	})
	if slices.Equal(uploaded["best_cells"], before["best_cells"]) {
		t.Fatal("the upload moved none of its group's bests; the test proves nothing")
	}
	same := func(step string, got, want map[string][]string) {
		t.Helper()
		for name := range tables {
			if !slices.Equal(got[name], want[name]) {
				t.Errorf("%s: %s's rows for the group are not those of before it; first missing: %v",
					step, name, storetest.FirstMissing(want[name], got[name]))
			}
		}
	}
	same("hide", timed("hide", func() error { return s.HideRun(ctx, id) }), before)
	same("show", timed("show", func() error { return s.SetOwnRunHidden(ctx, id, account, false) }), uploaded)
	stored, err := s.GetRun(ctx, topID)
	if err != nil {
		t.Fatal(err)
	}
	same("re-derive", timed("re-derive", func() error { return s.ReplaceDerived(ctx, topID, stored) }), uploaded)
	same("delete", timed("delete", func() error { return s.DeleteOwnedRun(ctx, id, handle) }), before)
}
