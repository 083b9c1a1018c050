package lilbench

import (
	"fmt"
	"math"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// What lil-bench measured of the GPUs beside the bench: per phase and per
// GPU, power, energy, clocks and a throttle verdict; for the run, the
// worst verdict, the power limits and a 0.5 s series. It is read apart
// from the rest, leniently: a shape this reader does not know leaves the
// run without telemetry rather than refusing the measurements.

type phase struct {
	Kind         string   `json:"kind"`
	Name         string   `json:"name"`
	Concurrency  *float64 `json:"concurrency"`
	Context      any      `json:"context"`
	Start        *float64 `json:"start"`
	MeasureStart *float64 `json:"measure_start"`
	End          *float64 `json:"end"`
	Analysis     *struct {
		Verdict string     `json:"verdict"`
		GPUs    []phaseGPU `json:"gpus"`
	} `json:"analysis"`
}

type phaseGPU struct {
	Samples        *float64 `json:"samples"`
	SMClockDropPct *float64 `json:"sm_clock_drop_pct"`
	TempCMax       *float64 `json:"temp_c_max"`
	UtilPctMedian  *float64 `json:"util_pct_median"`
	PowerW         *struct {
		Median *float64 `json:"median"`
		Max    *float64 `json:"max"`
	} `json:"power_w"`
	EnergyJ     *float64           `json:"energy_j"`
	ReasonShare map[string]float64 `json:"reason_share"`
}

type summary struct {
	ThrottleVerdict string `json:"throttle_verdict"`
}

type series struct {
	IntervalS float64 `json:"interval_s"`
	T0        float64 `json:"t0"`
	TMs       []int64 `json:"t_ms"`
	GPUs      []struct {
		SMMHz   []*float64 `json:"sm_mhz"`
		PowerDW []*float64 `json:"power_dw"`
	} `json:"gpus"`
}

// verdict is a lil-bench throttle verdict as run.Telemetry spells it: "ok"
// is "none", "no_data" and anything unknown say nothing.
func verdict(v string) *string {
	switch v {
	case "ok":
		s := run.ThrottleNone
		return &s
	case run.ThrottlePowerCapped, run.ThrottleThermal, run.ThrottleHWSlowdown:
		return &v
	}
	return nil
}

// contextLabel is how lil-bench names a context in a phase: "0", or the
// tokens in units of 1,024 rounded down ("61k" for 63,424).
func contextLabel(ctx int) string {
	if ctx == 0 {
		return "0"
	}
	return fmt.Sprintf("%dk", ctx/1024)
}

func labelOf(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case float64:
		return contextLabel(int(c))
	}
	return ""
}

// limits are the GPUs' enforced, default and highest power limits, each
// summed over the GPUs, nil unless every GPU gave it.
func limits(h *hardware) (enforced, def, maxLimit *float64) {
	sum := func(get func(*power) *float64) *float64 {
		total := 0.0
		for _, g := range h.GPUs {
			if g.Power == nil {
				return nil
			}
			v := get(g.Power)
			if v == nil || *v <= 0 || math.IsInf(*v, 0) {
				return nil
			}
			total += *v
		}
		if total == 0 {
			return nil
		}
		return &total
	}
	enforced = sum(func(p *power) *float64 {
		if p.EnforcedLimitW != nil {
			return p.EnforcedLimitW
		}
		return p.LimitW
	})
	return enforced, sum(func(p *power) *float64 { return p.DefaultLimitW }),
		sum(func(p *power) *float64 { return p.MaxLimitW })
}

// phaseTelemetry sums a phase's per-GPU analysis. The average power is the
// energy over the measured window ÷ its seconds when every GPU gave its
// energy, else the sum of the GPUs' median samples. ok is false when no GPU
// has samples.
func phaseTelemetry(ph *phase, limit *float64) (t run.Telemetry, ok bool) {
	if ph.Analysis == nil {
		return t, false
	}
	var energy, median, peak, util float64
	var n, withEnergy, withMedian, withPeak, withUtil int
	for _, g := range ph.Analysis.GPUs {
		if g.Samples == nil || *g.Samples <= 0 {
			continue
		}
		n++
		if g.EnergyJ != nil && *g.EnergyJ >= 0 {
			energy += *g.EnergyJ
			withEnergy++
		}
		if p := g.PowerW; p != nil {
			if p.Median != nil && *p.Median >= 0 {
				median += *p.Median
				withMedian++
			}
			if p.Max != nil && *p.Max >= 0 {
				peak += *p.Max
				withPeak++
			}
		}
		if g.UtilPctMedian != nil && *g.UtilPctMedian >= 0 {
			util += *g.UtilPctMedian
			withUtil++
		}
		t.TempMaxC = maxOf(t.TempMaxC, g.TempCMax)
		t.SMClockDropPct = maxOf(t.SMClockDropPct, g.SMClockDropPct)
		for reason, share := range g.ReasonShare {
			if share > 0 && share <= 1 && share > t.ThrottleReasons[reason] {
				if t.ThrottleReasons == nil {
					t.ThrottleReasons = map[string]float64{}
				}
				t.ThrottleReasons[reason] = share
			}
		}
	}
	if n == 0 {
		return run.Telemetry{}, false
	}
	seconds := 0.0
	if ph.MeasureStart != nil && ph.End != nil {
		seconds = *ph.End - *ph.MeasureStart
	}
	switch {
	case withEnergy == n && seconds > 0 && energy > 0:
		t.EnergyJ, t.PowerW = run.F(energy), run.F(energy/seconds)
	case withMedian == n && median > 0:
		t.PowerW = run.F(median)
	}
	if withPeak == n && peak > 0 {
		t.PowerMaxW = run.F(peak)
	}
	if withUtil == n {
		t.GPUUtilPct = run.F(util / float64(n))
	}
	t.PowerLimitW = limit
	t.Throttle = verdict(ph.Analysis.Verdict)
	return t, true
}

func maxOf(a, b *float64) *float64 {
	if b == nil || math.IsNaN(*b) || math.IsInf(*b, 0) {
		return a
	}
	if a == nil || *b > *a {
		return run.F(*b)
	}
	return a
}

// applyTelemetry lays each phase's telemetry over its cell or prefill row
// (before applyPlan moves trimmed cells, while they still carry the
// context the phase is named by), keeping the VRAM figures of the bench's
// own summary, and sets the run's telemetry.
func applyTelemetry(p *run.Parsed, doc *document) {
	limit, def, maxLimit := limits(&doc.Hardware)
	var phases []phase
	if len(doc.Phases.Bytes()) > 0 && doc.Phases.Decode(&phases) != nil {
		phases = nil
	}
	for i := range phases {
		ph := &phases[i]
		t, ok := phaseTelemetry(ph, limit)
		if !ok {
			continue
		}
		label := labelOf(ph.Context)
		switch ph.Kind {
		case "decode":
			if ph.Concurrency == nil {
				continue
			}
			for j := range p.Decode {
				m := &p.Decode[j]
				if m.Concurrency == int(*ph.Concurrency) && contextLabel(m.Context) == label {
					m.Telemetry = overlay(m.Telemetry, t)
				}
			}
		case "prefill":
			for j := range p.Prefill {
				if m := &p.Prefill[j]; contextLabel(m.Context) == label {
					m.Telemetry = overlay(m.Telemetry, t)
				}
			}
		}
	}
	rt := p.Telemetry
	if rt == nil {
		rt = &run.RunTelemetry{}
	}
	var sum summary
	if len(doc.Summary.Bytes()) > 0 && doc.Summary.Decode(&sum) == nil {
		rt.Throttle = verdict(sum.ThrottleVerdict)
	}
	if limit != nil {
		rt.PowerLimitW = limit
	}
	rt.PowerLimitDefaultW, rt.PowerLimitMaxW = def, maxLimit
	rt.Series = powerSeries(doc, phases)
	if rt.Empty() && rt.PowerLimitDefaultW == nil && rt.PowerLimitMaxW == nil && rt.Series == nil {
		rt = nil
	}
	p.Telemetry = rt
}

// overlay is the bench's summary of a cell with the phase's measurement
// over it: VRAM only the bench's summary has.
func overlay(bench, phase run.Telemetry) run.Telemetry {
	phase.VRAMUsedMB, phase.VRAMTotalMB = bench.VRAMUsedMB, bench.VRAMTotalMB
	return phase
}

// maxSeriesPoints bounds the stored series: a long run's 0.5 s samples are
// averaged in buckets down to this many, more than a chart's width needs.
const maxSeriesPoints = 720

// powerSeries is the telemetry series summed (power) and averaged (SM
// clock) over the GPUs, nil when there is none. A sample where a GPU has
// no reading is left out.
func powerSeries(doc *document, phases []phase) *run.PowerSeries {
	var s series
	if len(doc.Telemetry.Bytes()) == 0 || doc.Telemetry.Decode(&s) != nil || len(s.TMs) == 0 || len(s.GPUs) == 0 {
		return nil
	}
	out := &run.PowerSeries{IntervalS: s.IntervalS}
	var ms []int64
	var pw, sm []float64
sample:
	for i, t := range s.TMs {
		var power, clock float64
		for _, g := range s.GPUs {
			if i >= len(g.PowerDW) || i >= len(g.SMMHz) || g.PowerDW[i] == nil || g.SMMHz[i] == nil ||
				*g.PowerDW[i] < 0 || *g.SMMHz[i] < 0 {
				continue sample
			}
			power += *g.PowerDW[i] / 10
			clock += *g.SMMHz[i]
		}
		ms, pw, sm = append(ms, t), append(pw, power), append(sm, clock/float64(len(s.GPUs)))
	}
	if len(ms) == 0 {
		return nil
	}
	step := (len(ms) + maxSeriesPoints - 1) / maxSeriesPoints
	for i := 0; i < len(ms); i += step {
		end := min(i+step, len(ms))
		var p, c float64
		for j := i; j < end; j++ {
			p, c = p+pw[j], c+sm[j]
		}
		k := float64(end - i)
		out.Ms = append(out.Ms, ms[i])
		out.PowerW = append(out.PowerW, math.Round(p/k*10)/10)
		out.SMMHz = append(out.SMMHz, math.Round(c/k))
	}
	for _, ph := range phases {
		if ph.Start == nil || ph.End == nil || ph.Name == "" {
			continue
		}
		start := *ph.Start
		if ph.MeasureStart != nil {
			start = *ph.MeasureStart
		}
		var v *string
		if ph.Analysis != nil {
			v = verdict(ph.Analysis.Verdict)
		}
		out.Phases = append(out.Phases, run.Phase{Name: ph.Name, Kind: ph.Kind,
			StartMs: int64(math.Round((start - s.T0) * 1000)), EndMs: int64(math.Round((*ph.End - s.T0) * 1000)),
			Throttle: v})
	}
	return out
}
