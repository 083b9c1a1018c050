package regressions_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/regressview"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/store/regressions"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// seedAt is the seed-shaped run (rankable: not quick, not demo) at engine version
// v, every total tok/s scaled by f.
func seedAt(v string, f float64, cmd string) *run.Run {
	r := storetest.SeedRun()
	r.Profile, r.Demo = "", false
	r.Engine.Version = v
	r.Engine.LaunchCommand = cmd
	for i := range r.Decode {
		if t := r.Decode[i].TotalTPS; t != nil {
			r.Decode[i].TotalTPS = run.F(*t * f)
		}
	}
	return r
}

func fold(t *testing.T, s *store.Store) {
	t.Helper()
	if _, err := s.FoldVersionChanges(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestVersionChangesFollowUploadsAndHides(t *testing.T) {
	ctx := context.Background()
	s, url := dbtest.New(t)
	newID := storetest.MustInsertRun(t, s, seedAt("0.32.0", 1, "vllm serve m --max-num-seqs 128"), "new")
	fold(t, s)
	if es, err := s.VersionChanges(ctx, regressions.Query{}); err != nil || len(es) != 0 {
		t.Fatalf("one version: %v changes, err %v", len(es), err)
	}
	oldID := storetest.MustInsertRun(t, s, seedAt("0.31.0", 1.25, "vllm serve m --max-num-seqs 64"), "old")
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM version_changes_pending`); n == 0 {
		t.Fatal("an upload noted no setup")
	}
	fold(t, s)
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM version_changes_pending`); n != 0 {
		t.Errorf("%d notes left after the fold", n)
	}
	es, err := s.VersionChanges(ctx, regressions.Query{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d changes, err %v", len(es), err)
	}
	e := es[0]
	if e.Kind != regress.Regression || e.OldVersion != "0.31.0" || e.NewVersion != "0.32.0" ||
		e.Old.ID != oldID || e.New.ID != newID || math.Abs(e.Percent+20) > 1e-9 ||
		!e.HasHeadline || e.Headline.Cell != (regress.Cell{Context: 0, Concurrency: 1}) ||
		len(e.Cells) != 48 || e.Engine != "vllm" {
		t.Errorf("entry %+v", e.Change)
	}
	if !strings.Contains(e.Old.Engine.LaunchCommand, "64") || e.New.Hardware.Driver == "" {
		t.Errorf("run headers not read: %+v / %+v", e.Old.Engine, e.New.Hardware)
	}
	for _, q := range []regressions.Query{{Engine: "vllm"}, {Hardware: e.Hardware}, {Run: oldID}, {Run: newID},
		{Model: e.Model, Hardware: e.Hardware, Engine: "vllm", Quantization: e.Quantization}, {Kind: regress.Regression},
		{Model: e.Model, Hardware: e.Hardware, Engine: "vllm", Quantization: e.Quantization, Version: "0.31.0"}} {
		if got, err := s.VersionChanges(ctx, q); err != nil || len(got) != 1 {
			t.Errorf("%+v: %d changes, err %v", q, len(got), err)
		}
	}
	for _, q := range []regressions.Query{{Engine: "sglang"}, {Hardware: "h100"}, {Run: "nope"}, {Kind: regress.Speedup},
		{Model: e.Model, Hardware: e.Hardware, Engine: "vllm", Quantization: e.Quantization, Version: "0.30.0"}} {
		if got, err := s.VersionChanges(ctx, q); err != nil || len(got) != 0 {
			t.Errorf("%+v: %d changes, err %v", q, len(got), err)
		}
	}
	// The report to send upstream names both versions, both commands
	// and both runs' addresses; the run's report links to the change.
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	en := b.Localizer("en")
	md := regressview.NewItem(en, en, "https://speedmatrix.example", e).Report
	for _, want := range []string{"0.31.0 → 0.32.0", "vllm serve m --max-num-seqs 64", "vllm serve m --max-num-seqs 128",
		"https://speedmatrix.example/runs/" + oldID, "https://speedmatrix.example/runs/" + newID, "−20.0 %"} {
		if !strings.Contains(md, want) {
			t.Errorf("report text lacks %q:\n%s", want, md)
		}
	}
	if links := regressview.Links(en, es); len(links) != 1 || !strings.HasPrefix(links[0].Href, "/regressions?engine=vllm&") {
		t.Errorf("report links %+v", links)
	}
	latest, err := s.LatestVersionChange(ctx, regressions.Query{})
	if err != nil || !latest.Equal(e.New.UploadedAt) {
		t.Errorf("latest %v, want the new run's upload %v (err %v)", latest, e.New.UploadedAt, err)
	}

	// Hidden, the old version is gone: one version left, no change.
	if err := s.HideRun(ctx, oldID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.VersionChanges(ctx, regressions.Query{}); len(got) != 0 {
		t.Errorf("a hidden run's change listed before the fold: %d", len(got))
	}
	fold(t, s)
	if n := storetest.MustQueryInt(t, url, `SELECT count(*) FROM version_changes`); n != 0 {
		t.Errorf("%d changes kept after the old version was hidden", n)
	}
}

func TestVersionChangesOfBulkLoadAndDemo(t *testing.T) {
	ctx := context.Background()
	s, _ := dbtest.New(t)
	versions := []string{"0.9.0", "0.10.0", "0.11.0"}
	scale := []float64{1, 1.5, 1.5}
	storetest.InsertBothWays(t, s, 4, "bulk", func(i int) *run.Run {
		if i == 3 { // a demo run much faster at 0.11.0: never compared
			r := seedAt("0.11.0", 10, "")
			r.Demo = true
			return r
		}
		return seedAt(versions[i], scale[i], "")
	})
	fold(t, s)
	es, err := s.VersionChanges(ctx, regressions.Query{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%d changes, err %v", len(es), err)
	}
	if e := es[0]; e.Kind != regress.Speedup || e.OldVersion != "0.9.0" || e.NewVersion != "0.10.0" ||
		math.Abs(e.Percent-50) > 1e-9 {
		t.Errorf("change %+v", e.Change)
	}
}

func TestFoldChunks(t *testing.T) {
	ctx := context.Background()
	s, url := dbtest.New(t)
	// More setups noted than one chunk holds: every one is folded.
	storetest.MustExec(t, url, `INSERT INTO version_changes_pending
SELECT 'h' || g, 'e', 'm', 'q' FROM generate_series(1, 450) g`)
	n, err := s.FoldVersionChanges(ctx)
	if err != nil || n != 450 {
		t.Errorf("folded %d setups, err %v", n, err)
	}
}
