package share

import (
	"image"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// chainFace is a font.Face over several fonts: each character is drawn and
// measured with the first font that has it, then with a machine font that
// has it (machineFont), and as the first font's box when none does. Like
// every face it is for one goroutine.
type chainFace struct {
	fonts []*opentype.Font
	faces []font.Face // faces[i] is fonts[i] at size, made when first needed
	size  float64
	buf   sfnt.Buffer
	pick  map[rune]int
	err   error
}

func newChainFace(fonts []*opentype.Font, size float64) (*chainFace, error) {
	c := &chainFace{fonts: fonts, size: size, pick: map[rune]int{}}
	if _, err := c.face(0); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *chainFace) face(i int) (font.Face, error) {
	for len(c.faces) <= i {
		c.faces = append(c.faces, nil)
	}
	if c.faces[i] == nil {
		f, err := opentype.NewFace(c.fonts[i], &opentype.FaceOptions{Size: c.size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			return nil, err
		}
		c.faces[i] = f
	}
	return c.faces[i], nil
}

// index is the font r is drawn with.
func (c *chainFace) index(r rune) int {
	if i, ok := c.pick[r]; ok {
		return i
	}
	i := fontIndex(c.fonts, &c.buf, r)
	if i < 0 {
		i = 0 // a box, in the first font
		if m := machineFont(r); m != nil {
			i = c.add(m)
		}
	}
	c.pick[r] = i
	return i
}

// add appends f to the chain once and returns its index.
func (c *chainFace) add(f *opentype.Font) int {
	for i, g := range c.fonts {
		if g == f {
			return i
		}
	}
	c.fonts = append(c.fonts[:len(c.fonts):len(c.fonts)], f) // never the caller's array
	return len(c.fonts) - 1
}

func (c *chainFace) faceFor(r rune) font.Face {
	f, err := c.face(c.index(r))
	if err != nil {
		c.err = err
		f, _ = c.face(0)
	}
	return f
}

// Close closes every face made.
func (c *chainFace) Close() error {
	for _, f := range c.faces {
		if f != nil {
			_ = f.Close()
		}
	}
	return nil
}

// Glyph draws r with the font chosen for it.
func (c *chainFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	return c.faceFor(r).Glyph(dot, r)
}

// GlyphBounds measures r in the font chosen for it.
func (c *chainFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	return c.faceFor(r).GlyphBounds(r)
}

// GlyphAdvance is r's advance in the font chosen for it.
func (c *chainFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	return c.faceFor(r).GlyphAdvance(r)
}

// Kern kerns two characters of one font; across fonts there is no pair.
func (c *chainFace) Kern(r0, r1 rune) fixed.Int26_6 {
	if i := c.index(r0); i == c.index(r1) {
		return c.faceFor(r0).Kern(r0, r1)
	}
	return 0
}

// Metrics are the first (Latin) font's, so lines sit alike in every language.
func (c *chainFace) Metrics() font.Metrics {
	return c.faceFor('a').Metrics()
}
