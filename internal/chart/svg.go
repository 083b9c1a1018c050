package chart

import (
	"fmt"
	"math"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/report"
)

// SVG writes the chart as an inline <svg> element. Text is escaped here;
// the result is safe to insert into a page as is.
func (c *Chart) SVG() string {
	var b strings.Builder
	tid, did := c.ID+"-t", c.ID+"-d"
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="%s" viewBox="0 0 %g %g" role="img" aria-labelledby="%s %s" font-size="%g">`,
		esc(c.ID), width, height, tid, did, fontSize)
	fmt.Fprintf(&b, `<title id="%s">%s</title><desc id="%s">%s</desc>`, tid, esc(c.Title), did, esc(c.Desc))
	c.writeAxes(&b)
	for _, s := range c.Series {
		c.writeSeries(&b, &s)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func (c *Chart) writeAxes(b *strings.Builder) {
	b.WriteString(`<g class="axes" fill="currentColor">`)
	lastX := math.Inf(-1)
	for _, t := range c.X.Ticks {
		x := c.X.px(t.V)
		fmt.Fprintf(b, `<line class="gl" x1="%.1f" y1="%g" x2="%.1f" y2="%g"/>`, x, plotTop, x, plotBottom)
		if x-lastX >= 26 { // labels closer than this would overlap
			fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%s</text>`, x, plotBottom+tickLen+fontSize, esc(t.Label))
			lastX = x
		}
	}
	for _, t := range c.Y.Ticks {
		y := c.Y.py(t.V)
		fmt.Fprintf(b, `<line class="gl" x1="%g" y1="%.1f" x2="%g" y2="%.1f"/>`, plotLeft, y, plotRight, y)
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, plotLeft-tickLen-2, y, esc(t.Label))
	}
	fmt.Fprintf(b, `<path class="frame" fill="none" d="M%g %gV%gH%g"/>`, plotLeft, plotTop, plotBottom, plotRight)
	fmt.Fprintf(b, `<text class="label" x="%g" y="%g" text-anchor="middle">%s</text>`,
		(plotLeft+plotRight)/2, height-6, esc(c.X.Label))
	fmt.Fprintf(b, `<text class="label" x="%g" y="%g" text-anchor="start">%s</text>`, 2.0, fontSize, esc(c.Y.Label))
	b.WriteString(`</g>`)
}

// writeSeries draws one line and its markers. Colours come as custom
// properties the stylesheet turns into stroke and fill.
func (c *Chart) writeSeries(b *strings.Builder, s *Series) {
	if len(s.Points) == 0 {
		return
	}
	fmt.Fprintf(b, `<g class="%s" data-series="%s">`, seriesClass(s.Colour, max(c.Colours, 1)), esc(s.Name))
	var d strings.Builder
	for i, p := range s.Points {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&d, "%s%.1f %.1f", cmd, c.X.px(p.X), c.Y.py(p.Y))
	}
	dash := ""
	if pat := dashes[s.Style%len(dashes)]; pat != "" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, pat)
	}
	fmt.Fprintf(b, `<path class="line" fill="none" d="%s"%s/>`, d.String(), dash)
	for _, p := range s.Points {
		cls := "mark"
		if p.Queued {
			cls = "mark queued"
		}
		fmt.Fprintf(b, `<g class="%s">%s<title>%s</title></g>`, cls,
			marker(s.Style%markShapes, c.X.px(p.X), c.Y.py(p.Y)), esc(s.Name+": "+p.XText+" → "+p.YText))
	}
	b.WriteString(`</g>`)
}

// marker draws shape k centred on (x, y).
func marker(k int, x, y float64) string {
	r := markSz
	switch k {
	case markSquare:
		return fmt.Sprintf(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f"/>`, x-r*0.9, y-r*0.9, r*1.8, r*1.8)
	case markTriangle:
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ"/>`, x, y-r*1.15, x+r, y+r*0.75, x-r, y+r*0.75)
	case markDiamond:
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ"/>`, x, y-r*1.2, x+r, y, x, y+r*1.2, x-r, y)
	case markDown:
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fL%.1f %.1fZ"/>`, x, y+r*1.15, x+r, y-r*0.75, x-r, y-r*0.75)
	case markCross:
		return fmt.Sprintf(`<path d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" class="x"/>`, x-r, y-r, x+r, y+r, x-r, y+r, x+r, y-r)
	}
	return fmt.Sprintf(`<circle cx="%.1f" cy="%.1f" r="%.1f"/>`, x, y, r)
}

// Swatch is a small inline SVG of series s's line and marker, for a legend.
func (c *Chart) Swatch(s *Series) string {
	dash := ""
	if pat := dashes[s.Style%len(dashes)]; pat != "" {
		dash = fmt.Sprintf(` stroke-dasharray="%s"`, pat)
	}
	return fmt.Sprintf(`<svg class="swatch" viewBox="0 0 36 12" width="36" height="12" aria-hidden="true"><g class="%s"><path class="line" fill="none" d="M1 6H35"%s/><g class="mark">%s</g></g></svg>`,
		seriesClass(s.Colour, max(c.Colours, 1)), dash, marker(s.Style%markShapes, 18, 6))
}

// esc escapes text for XML content and attribute values.
func esc(s string) string {
	return xmlEscaper.Replace(report.XMLSafe(s))
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
