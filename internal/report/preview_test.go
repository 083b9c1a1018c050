package report

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestPreviewNotices: a run of a known GPU and model points out only its
// failed cell; an unknown GPU, a model named only as served and a cell
// whose total its requests cannot reach are each said.
func TestPreviewNotices(t *testing.T) {
	l := localizer(t, "en")
	// The test run has one failed cell and nothing else to point out.
	if n := PreviewNotices(reporttest.Run(), l); len(n) != 1 || !strings.Contains(n[0], "1 of 9 cells failed") {
		t.Errorf("the test run's preview points out %v, want its failed cell alone", n)
	}
	r := reporttest.Run()
	r.Hardware.GPUName = "RTX 9999 Imaginary"
	r.Model.ID = ""
	odd := -1
	for i, c := range r.Decode {
		if c.Status == run.Valid && c.Concurrency > 1 && odd < 0 {
			odd = i
			r.Decode[i].TotalTPS = run.F(*c.PerRequestTPS * float64(c.Concurrency) * 3)
		}
	}
	got := strings.Join(PreviewNotices(r, l), "\n")
	cell := ContextLabel(r.Decode[odd].Context) + " × "
	for _, want := range []string{"RTX 9999 Imaginary", "“bench”", "look implausible", cell, "cells failed"} {
		if !strings.Contains(got, want) {
			t.Errorf("notices %q lack %q", got, want)
		}
	}
}
