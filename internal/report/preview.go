package report

import (
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// PreviewNotices are what an upload's preview points out before it is
// published, in plain words: facts the report will lack or show oddly,
// cells whose numbers do not add up, and cells that did not measure. None of them stops publication; what
// cannot be published (numbers no real run produces, a sweep file of
// another setup) is refused before there is a preview.
func PreviewNotices(r *run.Run, l *i18n.Localizer) []string {
	var out []string
	h := r.Hardware
	switch {
	case h.GPUName == "" && h.CPUName == "":
		out = append(out, l.T("draft.notice.no_hardware", nil))
	case h.GPUName != "" && !knownGPU(h):
		out = append(out, l.T("draft.notice.unknown_gpu", map[string]any{"GPU": h.GPUName}))
	}
	if r.Model.ID == "" && r.Model.ServedName != "" {
		out = append(out, l.T("draft.notice.served_name_only", map[string]any{"Name": r.Model.ServedName}))
	}
	if cells := implausible(r); len(cells) > 0 {
		out = append(out, l.T("draft.notice.implausible", map[string]any{"Cells": strings.Join(cells, ", ")}))
	}
	failed, measured := 0, 0
	for _, c := range r.Decode {
		if c.Status == run.Failed {
			failed++
		}
		if c.Measured {
			measured++
		}
	}
	if failed > 0 {
		out = append(out, l.N("draft.notice.failed_cells", failed, map[string]any{"Total": l.Int(int64(len(r.Decode)))}))
	}
	if len(r.Decode) > 0 && measured == 0 {
		out = append(out, l.T("draft.notice.nothing_measured", nil))
	}
	return out
}

// knownGPU reports whether the calculator's hardware table has the GPU, so
// the report and the calculator can say what the card could do.
func knownGPU(h run.Hardware) bool {
	t, err := calculator.Data()
	if err != nil {
		return false
	}
	_, ok := t.GPUFor(h)
	return ok
}

// implausibleRatio is how far a cell's total may exceed its requests'
// per-request speed times their number before it looks wrong: a total is
// the streams' sum, and averaging over the measured window puts real
// runs up to about 1.2 (the seed run's worst cell).
const implausibleRatio = 1.5

// implausible names the cells ("16K × 4") whose total throughput is more
// than their requests could produce together, most likely a unit or
// field mixed up in the file.
func implausible(r *run.Run) []string {
	var out []string
	for _, c := range r.Decode {
		if c.Status != run.Valid || c.TotalTPS == nil || c.PerRequestTPS == nil || *c.PerRequestTPS <= 0 {
			continue
		}
		if *c.TotalTPS > implausibleRatio**c.PerRequestTPS*float64(c.Concurrency) {
			out = append(out, ContextLabel(c.Context)+" × "+strconv.Itoa(c.Concurrency))
		}
	}
	return out
}
