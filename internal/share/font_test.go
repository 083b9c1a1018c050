package share

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/locales"
)

// noMachineFonts makes the test see the embedded fonts only, as on a
// machine without fonts, and restores the directories after.
func noMachineFonts(t *testing.T, dirs ...string) {
	t.Helper()
	old := machineFontDirs
	machineFontDirs = dirs
	t.Cleanup(func() { machineFontDirs = old })
}

// TestFontsCoverLocales fails when a message of any locale has a character
// the embedded subsets lack, in either weight: run `make fonts` after
// changing translations.
func TestFontsCoverLocales(t *testing.T) {
	for _, l := range i18n.Languages {
		msgs, err := i18n.ReadMessages(locales.FS, l.Tag)
		if err != nil {
			t.Fatal(err)
		}
		missing := map[rune]string{}
		// The languages' own names are drawn in every language.
		for _, other := range i18n.Languages {
			msgs = append(msgs, i18n.Message{ID: "i18n.Languages", Text: other.Name})
		}
		for _, bold := range []bool{false, true} {
			fonts, err := embeddedFonts(l.Tag, bold)
			if err != nil {
				t.Fatal(err)
			}
			var buf sfnt.Buffer
			for _, m := range msgs {
				text := m.Text
				for _, f := range m.Forms {
					text += f
				}
				for _, r := range text {
					if isDrawn(r) && fontIndex(fonts, &buf, r) < 0 {
						missing[r] = m.ID
					}
				}
			}
		}
		for r, id := range missing {
			t.Errorf("%s: %q (U+%04X, in %s) is in no embedded font: run make fonts", l.Tag, r, r, id)
		}
	}
}

// cardStrings are the texts the card draws for r in l, with their weight.
func cardStrings(r *run.Run, l *i18n.Localizer) map[string]bool {
	txt := newCardText(r, l)
	out := map[string]bool{txt.site: true, txt.title: true, txt.engine: false, txt.summary: false, legend(r, l): false}
	for _, n := range txt.numbers {
		out[n] = true
	}
	g := report.Build(r, l).Grid
	for _, c := range g.Columns {
		out[c.Label] = false
	}
	for _, row := range g.Rows {
		out[row.Label] = true
	}
	return out
}

// TestCardEveryLanguage draws the seed run's card in every language with
// the embedded fonts alone, and checks every text it draws glyph by glyph
// with the face the card uses: no character falls to .notdef. The cards
// differ by language (none falls back to English). CARD_DIR=dir writes them.
func TestCardEveryLanguage(t *testing.T) {
	noMachineFonts(t)
	r := demoRun(t, demo.SeedRun)
	seen := map[string]string{}
	for _, lang := range i18n.Languages {
		l := localizer(t, lang.Tag)
		p, err := Card(r, l)
		if err != nil {
			t.Fatalf("%s: %v", lang.Tag, err)
		}
		if _, err := png.Decode(bytes.NewReader(p)); err != nil {
			t.Fatalf("%s: %v", lang.Tag, err)
		}
		if other, ok := seen[string(p)]; ok {
			t.Errorf("the %s card is the %s card", lang.Tag, other)
		}
		seen[string(p)] = lang.Tag
		for s, bold := range cardStrings(r, l) {
			if n := notdefs(t, lang.Tag, s, bold); n != "" {
				t.Errorf("%s: %q draws %q as .notdef", lang.Tag, s, n)
			}
		}
		if len(l.Missing()) > 0 {
			t.Errorf("%s: missing messages %v", lang.Tag, l.Missing())
		}
		if dir := os.Getenv("CARD_DIR"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, "card-"+lang.Tag+".png"), p, 0o644)
		}
	}
}

// notdefs draws s with lang's face and returns the characters whose chosen
// font maps them to glyph 0.
func notdefs(t *testing.T, lang, s string, bold bool) string {
	t.Helper()
	f, err := newFace(lang, 40, bold)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := f.(*chainFace)
	var buf sfnt.Buffer
	var bad strings.Builder
	for _, r := range s {
		if !isDrawn(r) {
			continue
		}
		if _, _, _, _, ok := c.Glyph(fixed.P(0, 40), r); !ok {
			bad.WriteRune(r)
			continue
		}
		if gi, err := c.fonts[c.index(r)].GlyphIndex(&buf, r); err != nil || gi == 0 {
			bad.WriteRune(r)
		}
	}
	return bad.String()
}

// TestMachineFontFallback: a character no subset has (box drawing, here)
// is drawn with a machine font that has it, and is reported missing when
// the machine has none.
func TestMachineFontFallback(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "GoRegular.ttf"), goregular.TTF, 0o644); err != nil {
		t.Fatal(err)
	}
	noMachineFonts(t)
	const name = "RTX ═ 3090"
	if got := string(missingGlyphs("en", name, false)); got != "═" {
		t.Fatalf("without machine fonts, missing %q, want ═", got)
	}
	if n := notdefs(t, "en", name, false); n != "═" {
		t.Errorf("without machine fonts, notdefs %q", n)
	}
	machineFontDirs = []string{dir}
	if got := missingGlyphs("en", name, false); len(got) != 0 {
		t.Errorf("with the Go font on the machine, missing %q", string(got))
	}
	if n := notdefs(t, "en", name, false); n != "" {
		t.Errorf("with the Go font on the machine, notdefs %q", n)
	}
	// A Japanese title on an English page comes from the embedded CJK faces.
	if n := notdefs(t, "en", "日本語のモデル 한국어", true); n != "" {
		t.Errorf("CJK on an English card: notdefs %q", n)
	}
}

// textWidth answers a text it measured before with what it measured.
func TestTextWidthRemembered(t *testing.T) {
	for _, s := range []string{"speedmatrix", "36.5 tok/s · RTX 3060", "速度"} {
		want := measure(s, 11, false)
		for range 2 {
			if got := textWidth(s, 11, false); got != want || got <= 0 {
				t.Errorf("textWidth(%q) = %v, measured %v", s, got, want)
			}
		}
		if bold := textWidth(s, 11, true); bold == want && s == "speedmatrix" {
			t.Errorf("bold %q has the regular width %v", s, bold)
		}
	}
}
