package report

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// BoundView is the run measured against the decode calculator's bound.
type BoundView struct {
	// Median is "Median: 61 % of the decode bound over 17 cells"; empty
	// when no cell has an efficiency.
	Median string
	// Setup says what the bound assumes: "RTX 3060 12GB · Qwen/Qwen3.5-4B ·
	// weights fp8, head bf16, KV cache int4 · without speculative decoding".
	Setup string
	// Missing words each fact the calculator lacks, in calculator.Missing*
	// order; the cells then show no efficiency.
	Missing []string
	// Sources are the GPU's and the model's rows of the calculator's
	// tables the bound is computed from, each with its source and how sure
	// its figures are, as the calculator page shows them.
	Sources []BoundSource
	// CalculatorURL is /calculator prefilled with the run's setup.
	CalculatorURL string
}

// BoundSource is one row of the calculator's tables behind the bound: its
// name, where its figures come from, and their confidence in words
// ("verified in the source", "derived from verified figures", "unchecked
// estimate").
type BoundSource struct{ Name, URL, Confidence string }

// CalculatorPath is the calculator page's address.
const CalculatorPath = "/calculator"

// FormatEfficiency is measured ÷ bound as a whole percentage: "87 %".
func FormatEfficiency(l *i18n.Localizer, v float64) string {
	return l.T("bound.percent", map[string]any{"V": l.Dec(v*100, 0)})
}

// efficiency is a decode cell's efficiency for the table ("87 %", or
// Dash) and for the grid ("87 % of bound", or "").
type efficiency struct{ table, grid string }

// efficiencies are the run's cells against their bounds (bounds, in
// r.Decode's order), worded once for the grid and the table.
func efficiencies(r *run.Run, l *i18n.Localizer, bounds []calculator.CellBound) map[*run.DecodeCell]efficiency {
	out := make(map[*run.DecodeCell]efficiency, len(r.Decode))
	for i, b := range bounds {
		e := efficiency{table: Dash}
		if b.OK {
			e.table = FormatEfficiency(l, b.Efficiency)
			e.grid = l.T("bound.of_bound", map[string]any{"V": e.table})
		}
		out[&r.Decode[i]] = e
	}
	return out
}

func boundView(r *run.Run, l *i18n.Localizer, s calculator.RunSetup, bounds []calculator.CellBound) BoundView {
	v := BoundView{CalculatorURL: CalculatorPath + "?" + s.Link(r.Model.ID).Query()}
	for _, m := range s.Missing {
		name := ""
		switch m {
		case calculator.MissingGPU:
			name = hardwareName(r.Hardware, l)
		case calculator.MissingModel:
			name = joinNonEmpty(" ", r.Model.ID, r.Model.ServedName)
		}
		v.Missing = append(v.Missing, l.T("bound.missing."+m, map[string]any{"Name": name}))
	}
	if !s.Known() {
		return v
	}
	formats := l.T("bound.formats", map[string]any{"Weights": s.Weights.Code, "Head": s.Head.Code, "KV": s.KV})
	gpu := s.GPU.Name
	if s.Count > 1 {
		gpu = l.T("unit.count_x", map[string]any{"V": l.Int(int64(s.Count))}) + gpu
	}
	v.Setup = strings.Join([]string{gpu, s.Model.ID, formats, l.T("bound.no_spec", nil)}, l.T("common.dot_sep", nil))
	v.Median = medianLine(l, bounds)
	v.Sources = []BoundSource{
		{s.GPU.Name, s.GPU.URL, l.T("calc.confidence."+s.GPU.Confidence, nil)},
		{s.Model.ID, s.Model.URL, l.T("calc.confidence."+s.Model.Confidence, nil)},
	}
	return v
}

// FlagBadges are the marks of a run's plausibility flags, each in its own
// words: a cell above the physical bound ("above-bound"), a power the
// boards cannot draw ("power-implausible"). The report derives the flags
// afresh; the lists and leaderboards word the stored ones.
func FlagBadges(l *i18n.Localizer, flags []string) []Badge {
	var out []Badge
	for _, f := range flags {
		switch f {
		case calculator.FlagAboveBound:
			out = append(out, Badge{Kind: "above-bound", Label: l.T("bound.flag", nil), Title: l.T("bound.flag_title", nil)})
		case run.FlagPowerImplausible:
			out = append(out, Badge{Kind: "power-implausible", Label: l.T("energy.flag", nil), Title: l.T("energy.flag_title", nil)})
		}
	}
	return out
}

// MedianLine is the run's median efficiency line ("Median: 61 % of the
// decode bound, over 17 cells"), empty when no cell has one: the report's
// line, for the exports.
func MedianLine(r *run.Run, l *i18n.Localizer) string {
	return medianLine(l, calculator.ForRun(r).Cells(r))
}

// medianLine is MedianLine of a run whose cells' bounds are read already.
func medianLine(l *i18n.Localizer, bounds []calculator.CellBound) string {
	if m, n := calculator.MedianOf(bounds); n > 0 {
		return l.N("bound.median", n, map[string]any{"V": FormatEfficiency(l, m)})
	}
	return ""
}
