// Package regress finds the regressions and speedups of a setup (hardware,
// model, quantization, engine) between consecutive engine versions.
//
// Detect is pure: it reads each version's best valid total tok/s per cell
// (what the history tables keep) and decides; the store keeps its answers
// current (package store/regressions).
package regress

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/versions"
)

// Threshold is the share a cell's total tok/s must move by, either way,
// for the change between two versions to count.
const Threshold = 0.10

// tolerance absorbs floating-point noise at the threshold: a cell that
// moved by exactly 10 % counts.
const tolerance = 1e-9

// Kind says which way a setup moved between two versions.
type Kind string

// Kinds.
const (
	Regression Kind = "regression"
	Speedup    Kind = "speedup"
)

// Cell is a point of the decode grid.
type Cell struct {
	Context     int `json:"context"`
	Concurrency int `json:"concurrency"`
}

// Point is one engine version's best valid total tok/s at one cell of a
// setup, and the run that holds it.
type Point struct {
	Version string
	Cell
	TPS        float64
	RunID      string
	UploadedAt time.Time
}

// CellChange is one cell both versions measured valid.
type CellChange struct {
	Cell
	Old float64 `json:"old"`
	New float64 `json:"new"`
}

// Change is (new − old) ÷ old.
func (c CellChange) Change() float64 { return (c.New - c.Old) / c.Old }

// Change is a regression or a speedup between two consecutive versions.
type Change struct {
	OldVersion, NewVersion string
	// OldRun and NewRun are the runs that stand for each version: the one
	// holding its best at the headline cell, else the one holding most of
	// its shared cells.
	OldRun, NewRun string
	Kind           Kind
	// Headline is the single-stream cell (0 × 1, or the smallest shared
	// context at concurrency 1) when both versions measured one; HasHeadline
	// is false otherwise.
	Headline    CellChange
	HasHeadline bool
	// Percent is the change shown, in per cent (−20 for a fifth slower):
	// at the headline cell when it decided, else the median over the
	// shared cells.
	Percent float64
	// Cells are every shared cell, by context then concurrency.
	Cells []CellChange
	// SeenAt is when the newer version's run was uploaded: lists put the
	// newest first.
	SeenAt time.Time
}

// Entry is a stored change with the runs that stand for its versions
// (their headers: hardware, engine, model, launch command; no cells).
type Entry struct {
	Change
	Old, New *run.Run
}

// Detect compares each pair of consecutive versions among points (one
// setup's; versions ordered as /history orders them) on the cells both
// measured, and returns the pairs that moved: 10 % or more at the
// single-stream cell, or at the majority of shared cells. A pair whose
// single-stream cell crossed the threshold takes its direction from it;
// otherwise from the majority. Oldest pair first.
func Detect(points []Point) []Change {
	byVersion := map[string]map[Cell]Point{}
	for _, p := range points {
		m := byVersion[p.Version]
		if m == nil {
			m = map[Cell]Point{}
			byVersion[p.Version] = m
		}
		if old, ok := m[p.Cell]; !ok || p.TPS > old.TPS {
			m[p.Cell] = p
		}
	}
	order := slices.SortedFunc(maps.Keys(byVersion), versions.Compare)
	var out []Change
	for i := 1; i < len(order); i++ {
		if c, ok := compare(order[i-1], order[i], byVersion[order[i-1]], byVersion[order[i]]); ok {
			out = append(out, c)
		}
	}
	return out
}

// compare decides one pair of versions.
func compare(oldV, newV string, old, cur map[Cell]Point) (Change, bool) {
	c := Change{OldVersion: oldV, NewVersion: newV}
	for k, o := range old {
		if n, ok := cur[k]; ok && o.TPS > 0 {
			c.Cells = append(c.Cells, CellChange{Cell: k, Old: o.TPS, New: n.TPS})
		}
	}
	if len(c.Cells) == 0 {
		return c, false
	}
	slices.SortFunc(c.Cells, func(a, b CellChange) int {
		return cmp.Or(cmp.Compare(a.Context, b.Context), cmp.Compare(a.Concurrency, b.Concurrency))
	})
	down, up := 0, 0
	for _, x := range c.Cells {
		switch ch := x.Change(); {
		case ch <= -Threshold+tolerance:
			down++
		case ch >= Threshold-tolerance:
			up++
		}
	}
	// The cells are sorted: the first at concurrency 1 has the smallest context.
	if i := slices.IndexFunc(c.Cells, func(x CellChange) bool { return x.Concurrency == 1 }); i >= 0 {
		c.Headline, c.HasHeadline = c.Cells[i], true
	}
	majority := func(n int) bool { return 2*n > len(c.Cells) }
	c.Percent = median(c.Cells) * 100
	switch h := c.Headline.Change(); {
	case c.HasHeadline && h <= -Threshold+tolerance:
		c.Kind, c.Percent = Regression, h*100
	case c.HasHeadline && h >= Threshold-tolerance:
		c.Kind, c.Percent = Speedup, h*100
	case majority(down):
		c.Kind = Regression
	case majority(up):
		c.Kind = Speedup
	default:
		return c, false
	}
	c.OldRun, _ = representative(old, c)
	var seen time.Time
	c.NewRun, seen = representative(cur, c)
	c.SeenAt = seen
	return c, true
}

// representative is the run standing for a version: the holder of its
// headline cell, else of most shared cells (ties to the smaller id), with
// its upload time.
func representative(m map[Cell]Point, c Change) (string, time.Time) {
	if c.HasHeadline {
		p := m[c.Headline.Cell]
		return p.RunID, p.UploadedAt
	}
	count := map[string]int{}
	at := map[string]time.Time{}
	for _, x := range c.Cells {
		p := m[x.Cell]
		count[p.RunID]++
		at[p.RunID] = p.UploadedAt
	}
	best := ""
	for id, n := range count {
		if best == "" || n > count[best] || n == count[best] && id < best {
			best = id
		}
	}
	return best, at[best]
}

// median is the median change over cells.
func median(cells []CellChange) float64 {
	ch := make([]float64, len(cells))
	for i, x := range cells {
		ch[i] = x.Change()
	}
	slices.Sort(ch)
	n := len(ch)
	if n%2 == 1 {
		return ch[n/2]
	}
	return (ch[n/2-1] + ch[n/2]) / 2
}
