package share

import (
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Layout of the grid image, in pixels.
const (
	svgCellW, svgCellH = 124, 46
	svgLabelW          = 72
	svgHeadH           = 26
	svgTop             = 64 // title and subtitle
	svgFoot            = 28
)

// GridSVG writes the decode grid as a standalone SVG image: the run's
// title, then a row per context and a column per concurrency, valid cells
// coloured by report.Colour with their tok/s and TTFT, every other status
// hatched grey with its label (and a queued cell's numbers), as on the page.
func GridSVG(w io.Writer, r *run.Run, l *i18n.Localizer) error {
	v := report.Build(r, l)
	g := v.Grid
	width := svgLabelW + svgCellW*max(len(g.Columns), 1) + 16
	width = max(width, int(textWidth(v.Title, 18, true))+24)
	foot := l.T("site.name", nil) + " · " + EngineLineDisplay(r, l)
	if by := Byline(r, l); by != "" {
		foot += l.T("common.dot_sep", nil) + by
	}
	width = max(width, int(textWidth(foot, 11, false))+16)
	height := svgTop + svgHeadH + svgCellH*len(g.Rows) + svgFoot
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s" xml:lang="%s" font-family="%s">`,
		width, height, width, height, attr(v.Title+" — "+l.T("run.grid.caption", nil)), attr(l.Lang()), attr(svgFontFamily(l.Lang())))
	b.WriteString(`<title>` + esc(v.Title) + `</title>`)
	b.WriteString(`<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
		`<rect width="8" height="8" fill="#eeeeee"/><line x1="0" y1="0" x2="0" y2="8" stroke="#d0d0d0" stroke-width="3"/></pattern></defs>`)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`, width, height)
	fmt.Fprintf(&b, `<text x="8" y="24" font-size="18" font-weight="700" fill="#111">%s</text>`, esc(v.Title))
	fmt.Fprintf(&b, `<text x="8" y="46" font-size="12" fill="#444">%s</text>`,
		esc(l.T("run.section.decode", nil)+" · "+l.T("run.section.decode_sub", nil)))
	y := svgTop
	fmt.Fprintf(&b, `<text x="8" y="%d" font-size="12" font-weight="700" fill="#333">%s</text>`, y+17, esc(l.T("run.grid.context", nil)))
	for i, c := range g.Columns {
		x := svgLabelW + i*svgCellW
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="12" font-weight="700" fill="#333" text-anchor="middle">%s</text>`,
			x+svgCellW/2, y+17, esc(c.Label))
	}
	y += svgHeadH
	for _, row := range g.Rows {
		fmt.Fprintf(&b, `<text x="8" y="%d" font-size="13" font-weight="700" fill="#333">%s</text>`, y+svgCellH/2+5, esc(row.Label))
		for i, c := range row.Cells {
			svgCell(&b, svgLabelW+i*svgCellW, y, c)
		}
		y += svgCellH
	}
	fmt.Fprintf(&b, `<text x="8" y="%d" font-size="11" fill="#666">%s</text>`, height-10, esc(foot))
	b.WriteString(`</svg>`)
	_, err := io.WriteString(w, b.String())
	return err
}

// svgCell draws one cell at (x, y): coloured when valid, hatched otherwise;
// status is always spelled out, never told by colour alone.
func svgCell(b *strings.Builder, x, y int, c report.Cell) {
	fill, fg := "url(#hatch)", "#222"
	if c.BG != "" {
		fill, fg = c.BG, c.FG
	}
	fmt.Fprintf(b, `<g data-status="%s"><rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#ffffff" stroke-width="2">`,
		attr(string(c.Status)), x, y, svgCellW, svgCellH, fill)
	if c.Reason != "" {
		b.WriteString(`<title>` + esc(c.Reason) + `</title>`)
	}
	b.WriteString(`</rect>`)
	cx := x + svgCellW/2
	var lines []svgLine
	if c.TPS != "" {
		lines = append(lines, svgLine{c.TPS, 14, true})
	}
	if c.StatusLabel != "" {
		lines = append(lines, svgLine{c.StatusLabel, 11, false})
	}
	if c.TTFT != "" && len(lines) < 2 {
		lines = append(lines, svgLine{c.TTFT, 11, false})
	}
	ty := y + svgCellH/2 + 5
	if len(lines) == 2 {
		ty = y + 20
	}
	for _, ln := range lines {
		weight := ""
		if ln.bold {
			weight = ` font-weight="700"`
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="%d"%s fill="%s" text-anchor="middle">%s</text>`, cx, ty, ln.size, weight, fg, esc(ln.text))
		ty += 16
	}
	b.WriteString(`</g>`)
}

// svgLine is one line of text in a cell.
type svgLine struct {
	text string
	size int
	bold bool
}

// esc escapes text for XML content; attr for an attribute value. Both
// drop what XML cannot hold (report.XMLSafe), so the image always loads.
func esc(s string) string  { return html.EscapeString(report.XMLSafe(s)) }
func attr(s string) string { return html.EscapeString(report.XMLSafe(s)) }
