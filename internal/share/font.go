package share

import (
	"embed"
	"path"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/speedmatrix/speedmatrix/internal/memo"
)

// The cards draw, and the SVGs are measured, with subsets of Noto Sans and
// Noto Sans CJK embedded in the binary (fonts/, OFL; scripts/fonts.sh makes
// them from every locale's strings), so a Japanese, Chinese or Korean card
// needs no font on the machine. A character no subset has (a model named in
// Thai) is looked for in the machine's fonts; see machine.go.
//
//go:embed fonts/*.ttf fonts/*.otf
var fontFiles embed.FS

// script names an embedded family: Latin (with Greek and Cyrillic) or one
// CJK region's glyph forms.
type script int

const (
	latin script = iota
	cjkJP
	cjkSC
	cjkKR
	numScripts
)

var fontFileNames = [numScripts]string{"NotoSans", "NotoSansCJKJP", "NotoSansCJKSC", "NotoSansCJKKR"}

// embedded holds the parsed subsets, [script][bold].
var embedded = sync.OnceValues(func() (*[numScripts][2]*opentype.Font, error) {
	var out [numScripts][2]*opentype.Font
	for s, name := range fontFileNames {
		for b, weight := range []string{"Regular", "Bold"} {
			ext := ".subset.otf"
			if script(s) == latin {
				ext = ".subset.ttf"
			}
			raw, err := fontFiles.ReadFile(path.Join("fonts", name+"-"+weight+ext))
			if err != nil {
				return nil, err
			}
			if out[s][b], err = opentype.Parse(raw); err != nil {
				return nil, err
			}
		}
	}
	return &out, nil
})

// scriptOrder is the order faces are tried in for a language: Latin first,
// then the language's own CJK forms (the same character is drawn
// differently in Japan, China and Korea), then the others.
func scriptOrder(lang string) []script {
	switch lang {
	case "zh-Hans":
		return []script{latin, cjkSC, cjkJP, cjkKR}
	case "ko":
		return []script{latin, cjkKR, cjkJP, cjkSC}
	}
	return []script{latin, cjkJP, cjkSC, cjkKR}
}

// embeddedFonts are the embedded fonts of one weight in lang's order.
func embeddedFonts(lang string, bold bool) ([]*opentype.Font, error) {
	all, err := embedded()
	if err != nil {
		return nil, err
	}
	b := 0
	if bold {
		b = 1
	}
	var out []*opentype.Font
	for _, s := range scriptOrder(lang) {
		out = append(out, all[s][b])
	}
	return out, nil
}

// newFace returns a face for text in lang at size pixels (72 DPI: 1 pt =
// 1 px) that draws each character with the first font holding it.
func newFace(lang string, size float64, bold bool) (font.Face, error) {
	fonts, err := embeddedFonts(lang, bold)
	if err != nil {
		return nil, err
	}
	f, err := newChainFace(fonts, size)
	if err != nil {
		return nil, err // not a nil *chainFace in a non-nil interface
	}
	return f, nil
}

// textWidth is the advance of s in pixels at size: the SVGs size their
// boxes by it (and pin the text to it with textLength, since the reader's
// font differs). CJK advances are one em in all three regions' forms, so
// the language does not matter here.
func textWidth(s string, size float64, bold bool) float64 {
	k := widthKey{s, size, bold}
	if w, ok := widths.Get(k); ok {
		return w
	}
	w := measure(s, size, bold)
	widths.Put(k, w)
	return w
}

// widths are the advances textWidth has measured: a report's badge and
// the site's name are measured on every miss, each with a new face.
var widths memo.Map[widthKey, float64]

type widthKey struct {
	s    string
	size float64
	bold bool
}

// measure is textWidth, measured.
func measure(s string, size float64, bold bool) float64 {
	face, err := newFace("", size, bold)
	if err != nil {
		return float64(len(s)) * size * 0.6
	}
	defer face.Close()
	return fixedToFloat(font.MeasureString(face, s))
}

func fixedToFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// missingGlyphs returns the characters of s that neither the embedded fonts
// nor the machine's have, in order: what a card would draw as boxes.
func missingGlyphs(lang, s string, bold bool) []rune {
	fonts, err := embeddedFonts(lang, bold)
	if err != nil {
		return []rune(s)
	}
	var buf sfnt.Buffer
	var out []rune
	for _, r := range s {
		if !isDrawn(r) {
			continue
		}
		if fontIndex(fonts, &buf, r) < 0 && machineFont(r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// isDrawn is false for characters that have no glyph on purpose.
func isDrawn(r rune) bool {
	return r > ' ' && r != 0x7f && r != 0xa0 && r != 0x202f && r != 0x200b
}

// fontIndex is the first font with a glyph for r, or -1.
func fontIndex(fonts []*opentype.Font, buf *sfnt.Buffer, r rune) int {
	for i, f := range fonts {
		if gi, err := f.GlyphIndex(buf, r); err == nil && gi != 0 {
			return i
		}
	}
	return -1
}

// svgFontFamily is the font-family of an SVG in lang: the fonts the
// embedded subsets come from first (the reader's machine may have them),
// then each platform's own font for the language's script, so Japanese,
// Chinese and Korean each get their own glyph forms.
func svgFontFamily(lang string) string {
	cjk := map[string]string{
		"ja":      "'Noto Sans CJK JP','Noto Sans JP','Hiragino Sans','Yu Gothic',",
		"zh-Hans": "'Noto Sans CJK SC','Noto Sans SC','PingFang SC','Microsoft YaHei',",
		"ko":      "'Noto Sans CJK KR','Noto Sans KR','Apple SD Gothic Neo','Malgun Gothic',",
	}[lang]
	return "'Noto Sans'," + cjk + "system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans','Noto Sans CJK JP',sans-serif"
}
