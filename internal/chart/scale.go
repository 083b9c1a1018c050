package chart

import "math"

// Geometry of every chart, in SVG user units. The viewBox is small so that
// text stays legible when a phone scales the chart down.
const (
	width, height             = 480.0, 300.0
	padLeft, padRight         = 56.0, 16.0
	padTop, padBottom         = 24.0, 40.0
	plotLeft, plotRight       = padLeft, width - padRight
	plotTop, plotBottom       = padTop, height - padBottom
	fontSize, tickLen, markSz = 11.0, 4.0, 3.6
)

// px maps a value on the x axis to user units.
func (a *Axis) px(v float64) float64 { return plotLeft + a.frac(v)*(plotRight-plotLeft) }

// py maps a value on the y axis to user units (up is larger).
func (a *Axis) py(v float64) float64 { return plotBottom - a.frac(v)*(plotBottom-plotTop) }

func (a *Axis) frac(v float64) float64 {
	lo, hi := a.Min, a.Max
	if a.Log2 {
		lo, hi, v = math.Log2(lo), math.Log2(hi), math.Log2(math.Max(v, a.Min))
	}
	if hi <= lo {
		return 0.5
	}
	return math.Min(math.Max((v-lo)/(hi-lo), 0), 1)
}

// linearRange returns 0..a nice maximum at or above max, and the step of
// about five ticks between.
func linearRange(max float64) (top, step float64) {
	if max <= 0 || math.IsNaN(max) || math.IsInf(max, 0) {
		return 1, 0.2
	}
	raw := max / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if step = m * mag; step >= raw {
			break
		}
	}
	return math.Ceil(max/step-1e-9) * step, step
}

// linearTicks fills a linear axis from 0 to cover max, labelling each tick
// with label, which gets the step too (whole steps need no decimals).
func linearTicks(a *Axis, max float64, label func(v, step float64) string) {
	top, step := linearRange(max)
	a.Min, a.Max, a.Log2 = 0, top, false
	a.Ticks = nil
	for v := 0.0; v <= top+step/2; v += step {
		a.Ticks = append(a.Ticks, Tick{V: v, Label: label(v, step)})
	}
}

// log2Ticks fills a doubling axis over the values present, with a tick at
// each, padded half a step on both sides so end markers clear the frame.
func log2Ticks(a *Axis, values []int, label func(int) string) {
	a.Log2, a.Ticks = true, nil
	if len(values) == 0 {
		a.Min, a.Max = 1, 2
		return
	}
	lo, hi := float64(values[0]), float64(values[len(values)-1])
	a.Min, a.Max = lo/math.Sqrt2, hi*math.Sqrt2
	for _, v := range values {
		a.Ticks = append(a.Ticks, Tick{V: float64(v), Label: label(v)})
	}
}
