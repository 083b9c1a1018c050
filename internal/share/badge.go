package share

import (
	"fmt"
	"io"
	"math"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// BadgeText is the badge's message: the single-stream figure (the peak
// when there is none) and the hardware: "63.5 tok/s · RTX 3060 12GB".
func BadgeText(r *run.Run, l *i18n.Localizer) string {
	v := SingleStream(r)
	if v == nil {
		v = Peak(r)
	}
	hw := report.HardwareName(r, l)
	if v == nil {
		return hw
	}
	return l.T("unit.tok_s", map[string]any{"V": report.FormatTPSShort(l, v)}) + l.T("common.dot_sep", nil) + hw
}

// badgePad is the space either side of each half's text.
const badgePad = 6.0

// BadgeHeight is the badge's height in pixels.
const BadgeHeight = 20

// badgeWidths are the widths of the label's and the message's text at the
// badge's 11 px.
func badgeWidths(label, msg string) (lw, mw float64) {
	const size = 11.0
	return math.Ceil(textWidth(label, size, false)), math.Ceil(textWidth(msg, size, false))
}

// BadgeWidth is the width Badge draws for r in l's language, so a page can
// size the image before it loads (no layout shift).
func BadgeWidth(r *run.Run, l *i18n.Localizer) int {
	lw, mw := badgeWidths(l.T("site.name", nil), BadgeText(r, l))
	return int(lw + mw + 4*badgePad)
}

// Badge writes a small shields-style SVG badge: the site's name on grey,
// BadgeText on the colour scale's middle. Widths come from the embedded
// Noto fonts' metrics and textLength pins the text to them, so the badge
// looks the same whatever font the reader has.
func Badge(w io.Writer, r *run.Run, l *i18n.Localizer) error {
	label, msg := l.T("site.name", nil), BadgeText(r, l)
	lw, mw := badgeWidths(label, msg)
	// The name is too long for the badge itself; its title (the tooltip,
	// and what a screen reader says) tells who uploaded the run.
	title := label + ": " + msg
	if by := Byline(r, l); by != "" {
		title += l.T("common.dot_sep", nil) + by
	}
	left, right := lw+2*badgePad, mw+2*badgePad
	total := left + right
	bg, fg := report.Colour(0.45, 1)
	_, err := fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%[1]g" height="20" viewBox="0 0 %[1]g 20" role="img" aria-label="%[2]s" xml:lang="%[13]s">`+
		`<title>%[2]s</title>`+
		`<linearGradient id="s" x2="0" y2="100%%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>`+
		`<clipPath id="r"><rect width="%[1]g" height="20" rx="3" fill="#fff"/></clipPath>`+
		`<g clip-path="url(#r)"><rect width="%[3]g" height="20" fill="#555"/><rect x="%[3]g" width="%[4]g" height="20" fill="%[5]s"/><rect width="%[1]g" height="20" fill="url(#s)"/></g>`+
		`<g fill="%[6]s" text-anchor="middle" font-family="%[14]s" font-size="11">`+
		`<text x="%[7]g" y="14" fill="#fff" textLength="%[8]g">%[9]s</text>`+
		`<text x="%[10]g" y="14" textLength="%[11]g">%[12]s</text></g></svg>`,
		total, attr(title), left, right, bg, fg,
		left/2, lw, esc(label), left+right/2, mw, esc(msg), attr(l.Lang()), attr("Verdana,Geneva,"+svgFontFamily(l.Lang())))
	return err
}

// BadgeMarkdown is the Markdown that shows the badge linked to the report:
// "[![63.5 tok/s · RTX 3060 12GB](badge.svg)](report)".
func BadgeMarkdown(r *run.Run, l *i18n.Localizer, badgeURL, pageURL string) string {
	return "[![" + mdEscape(BadgeText(r, l)) + "](" + badgeURL + ")](" + pageURL + ")"
}

// EmbedHTML is the iframe snippet that embeds the report's grid.
func EmbedHTML(r *run.Run, l *i18n.Localizer, embedURL string) string {
	return `<iframe src="` + attr(embedURL) + `" title="` + attr(report.Title(r, l)) +
		`" width="760" height="520" style="border:0;max-width:100%" loading="lazy"></iframe>`
}
