package chart

import "github.com/speedmatrix/speedmatrix/internal/report"

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
	t := 0.0
	if n > 1 {
		t = float64(i) / float64(n-1)
	}
	light, _ = report.Colour(lightFrom+t*(lightTo-lightFrom), 1)
	dark, _ = report.Colour(darkFrom+t*(darkTo-darkFrom), 1)
	return light, dark
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
