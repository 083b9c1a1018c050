package differs

import (
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/share"
)

// Cell is a point of the decode grid.
type Cell struct{ Context, Concurrency int }

// Cells are the cells a run is compared at: its single-stream cell (the
// 0 × 1 cell, or the smallest context whose concurrency-1 cell is valid)
// and its peak cell, as share.SingleStream and share.Peak pick them; the
// peak is left out when it is the same cell, and a cell the run lacks is
// left out. Their order is that one.
func Cells(r *run.Run) []Cell {
	var out []Cell
	for _, v := range []*float64{share.SingleStream(r), share.Peak(r)} {
		if c := cellOf(r, v); c != nil {
			k := Cell{c.Context, c.Concurrency}
			if len(out) == 0 || out[0] != k {
				out = append(out, k)
			}
		}
	}
	return out
}

// cellOf is the cell of r whose total tok/s v points at: the cell the
// one function that picked it chose, found rather than picked again.
func cellOf(r *run.Run, v *float64) *run.DecodeCell {
	if v == nil {
		return nil
	}
	for i := range r.Decode {
		if r.Decode[i].TotalTPS == v {
			return &r.Decode[i]
		}
	}
	return nil
}

// Value is the total tok/s of r's cell k when its status gives the number
// a meaning (report.ShowsNumbers, as the grid reads it).
func Value(r *run.Run, k Cell) (float64, bool) {
	for i := range r.Decode {
		c := &r.Decode[i]
		if c.Context == k.Context && c.Concurrency == k.Concurrency {
			if report.ShowsNumbers(c.Status) && c.TotalTPS != nil && *c.TotalTPS > 0 {
				return *c.TotalTPS, true
			}
			return 0, false
		}
	}
	return 0, false
}

// Gap is the two runs' total tok/s at one cell.
type Gap struct {
	Cell
	This, Other float64
}

// Percent is this run's figure over the other's, as a signed per cent:
// -20 when this run is a fifth slower.
func (g Gap) Percent() float64 { return (g.This/g.Other - 1) * 100 }

// GapAt is the gap between this and other at cell k, and false when
// either has no number there.
func GapAt(this, other *run.Run, k Cell) (Gap, bool) {
	x, ok := Value(this, k)
	if !ok {
		return Gap{}, false
	}
	y, ok := Value(other, k)
	if !ok {
		return Gap{}, false
	}
	return Gap{Cell: k, This: x, Other: y}, true
}
