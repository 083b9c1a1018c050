package report

import (
	"strconv"
	"testing"
)

func parseHex(t *testing.T, s string) [3]float64 {
	t.Helper()
	var rgb [3]float64
	for i := range rgb {
		v, err := strconv.ParseUint(s[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("bad colour %q", s)
		}
		rgb[i] = float64(v)
	}
	return rgb
}

// TestColourScale: lightness rises with throughput (so the scale reads in
// greyscale and for colour-blind readers), and every foreground the scale
// picks meets WCAG AA for normal text against its background.
func TestColourScale(t *testing.T) {
	// At whole percent steps luminance strictly never falls; at finer
	// steps rounding to 8-bit channels may dip it by less than one
	// channel step (< 0.001), which no eye can see.
	for _, c := range []struct {
		steps int
		slack float64
	}{{100, 0}, {1000, 0.001}} {
		prev := -1.0
		for i := 0; i <= c.steps; i++ {
			bg, fg := Colour(float64(i), float64(c.steps))
			lb, lf := luminance(parseHex(t, bg)), luminance(parseHex(t, fg))
			if lb < prev-c.slack {
				t.Errorf("luminance falls at %d/%d: %s", i, c.steps, bg)
			}
			prev = lb
			if r := contrast(lb, lf); r < 4.5 {
				t.Errorf("%s on %s: contrast %.2f < 4.5", fg, bg, r)
			}
		}
	}
	if bg, _ := Colour(0, 100); bg != "#440154" {
		t.Errorf("bottom = %s", bg)
	}
	if bg, _ := Colour(100, 100); bg != "#fde725" {
		t.Errorf("top = %s", bg)
	}
	// Out of range and degenerate inputs clamp instead of failing.
	if bg, _ := Colour(200, 100); bg != "#fde725" {
		t.Errorf("above max = %s", bg)
	}
	if bg, _ := Colour(5, 0); bg != "#440154" {
		t.Errorf("zero max = %s", bg)
	}
}
