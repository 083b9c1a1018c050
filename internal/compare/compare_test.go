package compare_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/compare"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func localizer(t *testing.T) *i18n.Localizer {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	return b.Localizer("en")
}

// cellAt finds a ratio by grid point.
func cellAt(rs compare.Ratios, ctx, conc int) compare.Ratio {
	for _, row := range rs.Rows {
		for _, c := range row.Cells {
			if c.Context == ctx && c.Concurrency == conc {
				return c
			}
		}
	}
	return compare.Ratio{Why: "missing from the ratio grid"}
}

// scaled is the hand-built run with every number times f, and one more
// concurrency level (32) at context 0 that the first run lacks.
func scaled(f float64) *run.Run {
	r := reporttest.Run()
	r.ID = "b2"
	for i := range r.Decode {
		if c := &r.Decode[i]; c.TotalTPS != nil {
			c.TotalTPS = run.F(*c.TotalTPS * f)
		}
	}
	r.Decode = append(r.Decode, run.DecodeCell{Context: 0, Concurrency: 32, Status: run.Valid,
		Measured: true, Metrics: run.Metrics{TotalTPS: run.F(900), PerRequestTPS: run.F(28)}})
	return r
}

func TestRatios(t *testing.T) {
	l := localizer(t)
	a, b := reporttest.Run(), scaled(1.5)
	v := compare.Build(l, []*run.Run{a, b})
	if len(v.Ratios) != 1 || v.Ratios[0].Label != "B ÷ A" {
		t.Fatalf("ratios %+v", v.Ratios)
	}
	rs := v.Ratios[0]
	// Valid over valid: a plain ratio, formatted by report.FormatRatio.
	if c := cellAt(rs, 0, 1); !c.OK || c.Queued || c.Text != "1.50×" || c.Value < 1.499 || c.Value > 1.501 {
		t.Errorf("0×1 = %+v, want 1.50× unmarked", c)
	}
	// Queued on both sides: a ratio, marked.
	if c := cellAt(rs, 0, 16); !c.OK || !c.Queued {
		t.Errorf("0×16 = %+v, want a ratio marked queued", c)
	}
	if c := cellAt(rs, 131072, 1); !c.OK || !c.Queued {
		t.Errorf("128K×1 = %+v, want a ratio marked queued", c)
	}
	// Failed, over capacity, not measured: no ratio, and why, per side.
	for _, k := range []struct {
		ctx, conc int
		status    run.Status
	}{{131072, 2, run.Failed}, {131072, 16, run.OverCapacity}, {253952, 1, run.OverCapacity}, {253952, 2, run.NotMeasured}} {
		c := cellAt(rs, k.ctx, k.conc)
		label := report.StatusLabel(l, k.status)
		if c.OK || c.Text != "" || !strings.Contains(c.Why, "A: "+label) || !strings.Contains(c.Why, "B: "+label) {
			t.Errorf("%d×%d = %+v, want no ratio naming %q for A and B", k.ctx, k.conc, c, label)
		}
	}
	// A point only B measured: the union holds it, and the ratio says A
	// lacks it.
	if c := cellAt(rs, 0, 32); c.OK || c.Why != "not in A's grid" {
		t.Errorf("0×32 = %+v, want no ratio: not in A's grid", c)
	}
}

func TestUnionAxes(t *testing.T) {
	l := localizer(t)
	v := compare.Build(l, []*run.Run{reporttest.Run(), scaled(2)})
	var cols []int
	for _, c := range v.Columns {
		cols = append(cols, c.Concurrency)
	}
	if len(cols) != 4 || cols[3] != 32 {
		t.Fatalf("columns %v, want 1, 2, 16, 32", cols)
	}
	if len(v.Grids) != 2 || len(v.Grids[0].Rows) != 3 {
		t.Fatalf("grids %d, rows %d", len(v.Grids), len(v.Grids[0].Rows))
	}
	// Both grids have every column; A's 0×32 is a gap, B's a number.
	a0, b0 := v.Grids[0].Rows[0].Cells, v.Grids[1].Rows[0].Cells
	if len(a0) != 4 || !a0[3].Absent || b0[3].Absent || b0[3].TPS != "900.0" {
		t.Errorf("row 0: A %+v, B %+v", a0[3], b0[3])
	}
	if v.Runs[1].Letter != "B" || v.Runs[1].URL != "/runs/b2" {
		t.Errorf("runs %+v", v.Runs)
	}
	if len(v.Charts) != 3 || len(v.Charts[0].Series) != 4 {
		t.Errorf("charts: %d, first has %d series, want 3 and 4 (2 runs × 2 contexts)", len(v.Charts), len(v.Charts[0].Series))
	}
}

func TestThreeRuns(t *testing.T) {
	l := localizer(t)
	c := scaled(0.5)
	c.ID, c.Demo = "c3", true
	v := compare.Build(l, []*run.Run{reporttest.Run(), scaled(2), c})
	if len(v.Ratios) != 2 || v.Ratios[1].Label != "C ÷ A" || !v.Demo || !v.Runs[2].Demo {
		t.Fatalf("ratios %d, label %q, demo %v", len(v.Ratios), v.Ratios[1].Label, v.Demo)
	}
	if r := cellAt(v.Ratios[1], 0, 2); r.Text != "0.50×" {
		t.Errorf("C ÷ A at 0×2 = %+v", r)
	}
}

// Where both files measured power, each run's cell shows its tokens per
// joule beside its rate; without power, nothing.
func TestCompareTokensPerJoule(t *testing.T) {
	a, b := reporttest.Run(), reporttest.Run()
	a.ID, b.ID = "a", "b"
	b.Decode[0].Telemetry = run.Telemetry{PowerW: run.F(127)}
	v := compare.Build(localizer(t), []*run.Run{a, b})
	if got := v.Grids[1].Rows[0].Cells[0].TPJ; got != "0.500 tok/J" {
		t.Errorf("B's first cell = %q, want 63.5 ÷ 127 W = 0.500 tok/J", got)
	}
	if got := v.Grids[0].Rows[0].Cells[0].TPJ; got != "" {
		t.Errorf("A's first cell, without power, = %q", got)
	}
}
