package report

import (
	"fmt"
	"math"
)

// viridis holds matplotlib's viridis at 11 even steps. It is perceptually
// even and its lightness rises monotonically, so it reads for colour-blind
// readers and in greyscale. Interpolating between neighbours this close
// stays within a hair of the full 256-entry table.
var viridis = [...][3]float64{
	{0x44, 0x01, 0x54}, {0x48, 0x24, 0x75}, {0x41, 0x44, 0x87}, {0x35, 0x5f, 0x8d},
	{0x2a, 0x78, 0x8e}, {0x21, 0x91, 0x8c}, {0x22, 0xa8, 0x84}, {0x44, 0xbf, 0x70},
	{0x7a, 0xd1, 0x51}, {0xbd, 0xdf, 0x26}, {0xfd, 0xe7, 0x25},
}

// Colour is THE throughput colour scale of the portal: every page, chart and
// image colours tok/s with it, so one colour means one share of the maximum
// everywhere. It returns a background for v on a scale from 0 to max, and
// the foreground (black or white) that contrasts more with it; with pure
// black and white the better of the two is always at least 4.58:1.
func Colour(v, max float64) (bg, fg string) {
	return colourAt(float64(ColourStep(v, max)) / ColourSteps)
}

// ColourSteps is how many even steps the scale has above 0. Colours are
// snapped to them so a page can name each one with a class from the
// stylesheet (HeatCSS) instead of a style attribute, which a
// Content-Security-Policy without 'unsafe-inline' refuses; a step of 1 %
// of the maximum is below what an eye tells apart.
const ColourSteps = 100

// ColourStep is v's step (0 … ColourSteps) on the scale from 0 to max.
func ColourStep(v, max float64) int {
	t := 0.0
	if max > 0 && !math.IsNaN(v) {
		t = math.Min(math.Max(v/max, 0), 1)
	}
	return int(math.Round(t * ColourSteps))
}

// colourAt is the scale's colour at t in [0, 1] and its foreground.
func colourAt(t float64) (bg, fg string) {
	pos := t * float64(len(viridis)-1)
	i := int(math.Min(math.Floor(pos), float64(len(viridis)-2)))
	f := pos - float64(i)
	var rgb [3]float64
	for c := range rgb {
		rgb[c] = math.Round(viridis[i][c] + f*(viridis[i+1][c]-viridis[i][c]))
	}
	bg = fmt.Sprintf("#%02x%02x%02x", int(rgb[0]), int(rgb[1]), int(rgb[2]))
	lum := luminance(rgb)
	if contrast(lum, 1) >= contrast(lum, 0) {
		return bg, "#ffffff"
	}
	return bg, "#000000"
}

// luminance is WCAG 2's relative luminance of an sRGB colour (0–255).
func luminance(rgb [3]float64) float64 {
	var lin [3]float64
	for i, c := range rgb {
		c /= 255
		if c <= 0.04045 {
			lin[i] = c / 12.92
		} else {
			lin[i] = math.Pow((c+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*lin[0] + 0.7152*lin[1] + 0.0722*lin[2]
}

// contrast is WCAG 2's contrast ratio of two relative luminances.
func contrast(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	return (a + 0.05) / (b + 0.05)
}
