package share

import (
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The Go fonts are embedded in golang.org/x/image, so the card and the
// measurements behind the SVGs need no font on the machine. They cover
// Latin, Greek and Cyrillic (WGL4), not CJK: see covers.
var fonts = sync.OnceValues(func() (*[2]*opentype.Font, error) {
	reg, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, err
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, err
	}
	return &[2]*opentype.Font{reg, bold}, nil
})

// newFace returns the Go font at size pixels (72 DPI: 1 pt = 1 px).
func newFace(size float64, bold bool) (font.Face, error) {
	fs, err := fonts()
	if err != nil {
		return nil, err
	}
	f := fs[0]
	if bold {
		f = fs[1]
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

// textWidth is the advance of s in pixels at size, in the Go font: the SVGs
// size their boxes by it (and pin the text to it with textLength, since the
// reader's font differs).
func textWidth(s string, size float64, bold bool) float64 {
	face, err := newFace(size, bold)
	if err != nil {
		return float64(len(s)) * size * 0.6
	}
	defer face.Close()
	return fixedToFloat(font.MeasureString(face, s))
}

func fixedToFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// covers reports whether the Go fonts have a glyph for every character of
// every string, which decides the card's language.
func covers(strs ...string) bool {
	fs, err := fonts()
	if err != nil {
		return false
	}
	var buf sfnt.Buffer
	for _, s := range strs {
		for _, r := range s {
			if r == ' ' || r == '\n' {
				continue
			}
			if i, err := fs[0].GlyphIndex(&buf, r); err != nil || i == 0 {
				return false
			}
		}
	}
	return true
}
