package share

import (
	"io"
	"strings"

	"golang.org/x/text/width"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Text writes r as plain text for chat and e-mail: the headline, engine
// line and grid shape, the decode grid and the prefill rows as columns
// aligned for a monospaced font (wide CJK characters count as two), and
// the report's address.
func Text(w io.Writer, r *run.Run, l *i18n.Localizer, pageURL string) error {
	_, err := io.WriteString(w, plainText(r, l, pageURL, true, newTables(r, l)))
	return err
}

// plainText is Text's body; withURL adds the address at the end.
func plainText(r *run.Run, l *i18n.Localizer, pageURL string, withURL bool, t *tables) string {
	var b strings.Builder
	b.Grow(len(t.grids) + 512)
	b.WriteString(t.headline(r, l) + "\n")
	b.WriteString(t.engine + "\n")
	if t.byline != "" {
		b.WriteString(t.byline + "\n")
	}
	b.WriteString(t.summary + "\n\n")
	if t.median != "" {
		b.WriteString(t.median + "\n\n")
	}
	b.WriteString(t.grids)
	if withURL {
		b.WriteString(pageURL + "\n")
	}
	return b.String()
}

// grids is the decode grid and prefill rows as aligned text.
func grids(r *run.Run, l *i18n.Localizer, t *tables) string {
	var b strings.Builder
	b.Grow(2048)
	b.WriteString(l.T("run.section.decode", nil) + " " + l.T("share.decode_sub", nil) + "\n")
	textTable(&b, t.decode)
	if len(r.Prefill) > 0 {
		b.WriteString(l.T("run.section.prefill", nil) + "\n")
		textTable(&b, t.prefill)
	}
	if len(t.energy.rows) > 0 {
		b.WriteString(l.T("share.energy", nil) + " " + l.T("share.energy_sub", nil) + "\n")
		textTable(&b, t.energy)
	}
	return b.String()
}

// textTable pads every column to its widest cell, two spaces apart; the
// first column (context labels) is left-aligned, numbers right-aligned.
func textTable(b *strings.Builder, t table) {
	all := append([][]string{t.header}, t.rows...)
	widths := make([]int, len(t.header))
	for _, row := range all {
		for i, c := range row {
			widths[i] = max(widths[i], displayWidth(c))
		}
	}
	for _, row := range all {
		// Spaces owed are written only before text, so a line never ends
		// in them.
		owed := 0
		for i, c := range row {
			pad := widths[i] - displayWidth(c)
			if i > 0 {
				owed += 2 + pad
			}
			if c != "" {
				writeSpaces(b, owed)
				b.WriteString(c)
				owed = 0
			}
			if i == 0 {
				owed = pad
			}
		}
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
}

// writeSpaces writes n spaces.
func writeSpaces(b *strings.Builder, n int) {
	const spaces = "                                "
	for ; n > len(spaces); n -= len(spaces) {
		b.WriteString(spaces)
	}
	b.WriteString(spaces[:n])
}

// displayWidth is how many columns s takes in a monospaced font: East
// Asian wide and fullwidth characters take two.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}

// BBCode writes r for forums that take BBCode (phpBB, XenForo, vBulletin):
// the headline in bold linking to pageURL, the engine line and grid shape,
// the grids as aligned text in a [code] block (tables are not standard
// BBCode; [code] is, and keeps the columns), and a link back. Square
// brackets in the run's text become fullwidth ones outside the code block,
// so a model name cannot open a tag.
func BBCode(w io.Writer, r *run.Run, l *i18n.Localizer, pageURL string) error {
	_, err := io.WriteString(w, bbcode(r, l, pageURL, newTables(r, l)))
	return err
}

// bbcode is BBCode's text, with the tables made already.
func bbcode(r *run.Run, l *i18n.Localizer, pageURL string, t *tables) string {
	var b strings.Builder
	b.Grow(len(t.grids) + 1024)
	b.WriteString("[b][url=" + pageURL + "]" + bbEscape(t.headline(r, l)) + "[/url][/b]\n")
	b.WriteString(bbEscape(t.engine) + "\n")
	if t.byline != "" {
		b.WriteString(bbEscape(t.byline) + "\n")
	}
	b.WriteString(bbEscape(t.summary) + "\n\n")
	if t.median != "" {
		b.WriteString(bbEscape(t.median) + "\n\n")
	}
	b.WriteString("[code]\n" + strings.ReplaceAll(strings.TrimRight(t.grids, "\n"), "[/code]", "[/ code]") + "\n[/code]\n")
	b.WriteString("[url=" + pageURL + "]" + bbEscape(l.T("share.full_report", nil)) + "[/url]\n")
	return b.String()
}

var bbEscaper = strings.NewReplacer("[", "［", "]", "］")

func bbEscape(s string) string { return bbEscaper.Replace(s) }
