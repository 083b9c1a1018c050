package chart

import (
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/report"
)

// The line colours are steps along report.Colour's scale, the one colour
// scale of the portal, rather than a palette of their own. On a light page
// the dark end reads best, on a dark page the light end, so each line gets
// one step from each part; the stylesheet picks by prefers-color-scheme.
const (
	lightFrom, lightTo = 0.0, 0.62
	darkFrom, darkTo   = 0.38, 1.0
)

// Colours returns line i of n's colour for light and for dark pages.
func Colours(i, n int) (light, dark string) {
	l, d := steps(i, n)
	light, _ = report.Colour(float64(l), report.ColourSteps)
	dark, _ = report.Colour(float64(d), report.ColourSteps)
	return light, dark
}

// steps returns line i of n's steps on report.Colour's scale for light and
// dark pages.
func steps(i, n int) (light, dark int) {
	t := 0.0
	if n > 1 {
		t = float64(i) / float64(n-1)
	}
	return report.ColourStep(lightFrom+t*(lightTo-lightFrom), 1), report.ColourStep(darkFrom+t*(darkTo-darkFrom), 1)
}

// seriesClass is the class list that colours line i of n through the
// stylesheet (report.HeatCSS), so no style attribute is needed.
func seriesClass(i, n int) string {
	l, d := steps(i, n)
	return fmt.Sprintf("series sl-%d sd-%d", l, d)
}

// dashes and marker shapes cycle independently of colours, so two lines
// never differ by colour alone.
var dashes = []string{"", "7 4", "2 3", "10 3 2 3", "4 4", "12 3 2 3 2 3"}

const (
	markCircle = iota
	markSquare
	markTriangle
	markDiamond
	markDown
	markCross
	markShapes
)
