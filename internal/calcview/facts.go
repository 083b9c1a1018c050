package calcview

import (
	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
)

func gb(l *i18n.Localizer, v float64) string {
	d := 2
	if v >= 100 {
		d = 0
	} else if v >= 10 {
		d = 1
	}
	return l.T("unit.gb", map[string]any{"V": l.Dec(v, d)})
}

func tokS(l *i18n.Localizer, v float64) string {
	return l.T("unit.tok_s", map[string]any{"V": report.FormatTPS(l, &v)})
}

func memoryFacts(l *i18n.Localizer, in calculator.Input, m calculator.Memory) []Fact {
	ctx := report.ContextLabel(in.Context)
	facts := []Fact{
		{l.T("calc.memory.weights", nil), gb(l, m.WeightsGB)},
		{l.T("calc.memory.kv", map[string]any{"Context": ctx}), gb(l, m.KVGBPerRequest)},
	}
	if m.StateGBPerRequest > 0 {
		facts = append(facts, Fact{l.T("calc.memory.state", nil), gb(l, m.StateGBPerRequest)})
	}
	fits := "calc.memory.fits"
	if !m.Fits {
		fits = "calc.memory.no_fit"
	}
	facts = append(facts, Fact{l.N("calc.memory.needed", in.Concurrency, nil),
		l.T(fits, map[string]any{"Needed": gb(l, m.NeededGB), "Usable": gb(l, m.UsableGB)})})
	maxConc := l.Int(int64(m.MaxConcurrency))
	switch m.MaxConcurrency {
	case -1:
		maxConc = l.T("calc.memory.no_limit", nil)
	case 0:
		maxConc = l.T("calc.memory.weights_too_big", nil)
	}
	return append(facts, Fact{l.T("calc.memory.max_concurrency", map[string]any{"Context": ctx}), maxConc})
}

func boundFacts(l *i18n.Localizer, in calculator.Input, b calculator.Bound) []Fact {
	compute := l.T("calc.bound.unknown", nil)
	if b.ComputeTPS > 0 {
		compute = tokS(l, b.ComputeTPS)
	}
	by := l.T("calc.bound.by_memory", nil)
	if b.BoundBy == "compute" {
		by = l.T("calc.bound.by_compute", nil)
	}
	facts := []Fact{
		{l.T("calc.bound.total", nil), tokS(l, b.TotalTPS)},
		{l.T("calc.bound.per_request", nil), tokS(l, b.PerRequestTPS)},
		{l.T("calc.bound.by", nil), by},
		{l.T("calc.bound.memory", nil), tokS(l, b.MemoryTPS)},
		{l.T("calc.bound.compute", nil), compute},
		{l.T("calc.bound.bytes_per_step", nil), gb(l, b.BytesPerStepGB)},
	}
	if in.SpecTokens > 0 {
		facts = append(facts, Fact{l.T("calc.bound.tokens_per_step", nil), l.Dec(b.TokensPerStep, 2)})
	}
	return facts
}
