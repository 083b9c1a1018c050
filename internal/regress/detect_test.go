package regress

import (
	"math"
	"testing"
	"time"
)

// grid is a version's points: every cell of the seed's first row and
// column, total tok/s scaled by f.
func grid(version, run string, f float64) []Point {
	var out []Point
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		Cell
		v float64
	}{{Cell{0, 1}, 63.5}, {Cell{0, 2}, 125}, {Cell{0, 16}, 536.8}, {Cell{16384, 1}, 60}, {Cell{16384, 2}, 110}} {
		out = append(out, Point{Version: version, Cell: c.Cell, TPS: c.v * f, RunID: run, UploadedAt: at})
	}
	return out
}

func TestDetectSeedRegression(t *testing.T) {
	// 0.31.0 was 1.25× faster everywhere: 0.32.0 is a fifth slower.
	pts := append(grid("0.32.0", "new", 1), grid("0.31.0", "old", 1.25)...)
	got := Detect(pts)
	if len(got) != 1 {
		t.Fatalf("%d changes, want 1: %+v", len(got), got)
	}
	c := got[0]
	if c.Kind != Regression || c.OldVersion != "0.31.0" || c.NewVersion != "0.32.0" ||
		c.OldRun != "old" || c.NewRun != "new" || math.Abs(c.Percent-(-20)) > 1e-9 ||
		!c.HasHeadline || c.Headline.Cell != (Cell{0, 1}) || len(c.Cells) != 5 {
		t.Errorf("change %+v", c)
	}
}

func TestDetectOrdersVersionsAsHistory(t *testing.T) {
	// 0.9.0 → 0.10.0 → 0.11.0 by number, not as text.
	pts := append(append(grid("0.11.0", "c", 1.3), grid("0.9.0", "a", 1)...), grid("0.10.0", "b", 1)...)
	got := Detect(pts)
	if len(got) != 1 || got[0].OldVersion != "0.10.0" || got[0].NewVersion != "0.11.0" || got[0].Kind != Speedup {
		t.Fatalf("changes %+v", got)
	}
}

func TestDetectThresholdAndMajority(t *testing.T) {
	// 9 % everywhere: nothing.
	if got := Detect(append(grid("1", "a", 1), grid("2", "b", 0.91)...)); len(got) != 0 {
		t.Errorf("a 9 %% change reported: %+v", got)
	}
	// Exactly 10 % down counts.
	if got := Detect(append(grid("1", "a", 1), grid("2", "b", 0.9)...)); len(got) != 1 || got[0].Kind != Regression {
		t.Errorf("a 10 %% drop not reported: %+v", got)
	}
	// Single stream unchanged, 3 of 5 cells 15 % slower: the majority.
	old, cur := grid("1", "a", 1), grid("2", "b", 1)
	for i := 1; i <= 3; i++ {
		cur[i].TPS *= 0.85
	}
	got := Detect(append(old, cur...))
	if len(got) != 1 || got[0].Kind != Regression || math.Abs(got[0].Percent+15) > 1e-9 {
		t.Errorf("majority drop: %+v", got)
	}
	// 2 of 5 down: no majority, single stream unchanged: nothing.
	cur[3].TPS = old[3].TPS
	if got := Detect(append(old, cur...)); len(got) != 0 {
		t.Errorf("a minority reported: %+v", got)
	}
}

func TestDetectSharedCellsOnlyAndBestPerVersion(t *testing.T) {
	old := grid("1", "a", 1)[:2]
	cur := grid("2", "b", 0.5)[1:3] // shares only 0×2
	// A second run of version 2, faster at 0×2, is its best there.
	cur = append(cur, Point{Version: "2", Cell: Cell{0, 2}, TPS: 124, RunID: "c"})
	if got := Detect(append(old, cur...)); len(got) != 0 {
		t.Errorf("the version's best not used: %+v", got)
	}
}

func TestDetectNoHeadlineUsesMedian(t *testing.T) {
	old := grid("1", "a", 1)[1:3]
	cur := grid("2", "b", 0.8)[1:3]
	got := Detect(append(old, cur...))
	if len(got) != 1 || got[0].HasHeadline || math.Abs(got[0].Percent+20) > 1e-9 {
		t.Errorf("%+v", got)
	}
}
