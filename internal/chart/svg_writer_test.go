package chart

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestSVGWriterIsFmt: the chart's numbers read as fmt's %.1f and %g wrote
// them, so the charts' markup stays what it was.
func TestSVGWriterIsFmt(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 0.05, 0.25, 1.45, -2.35, 12.5, 123.456, 1e-5, 1e6, 1e21, 3.0e-7,
		math.Inf(1), math.Inf(-1), math.NaN(), 612.04999999, 0.95} {
		var b strings.Builder
		svgWriter{&b}.f1(v).s("|").g(v)
		if want := fmt.Sprintf("%.1f|%g", v, v); b.String() != want {
			t.Errorf("%v: %q, want %q", v, b.String(), want)
		}
	}
}
