package chart

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/report"
)

// SVG writes the chart as an inline <svg> element. Text is escaped here;
// the result is safe to insert into a page as is.
func (c *Chart) SVG() string {
	var b strings.Builder
	// Grown once to about its size: a chart is a few KB, most of it points.
	n := len(c.X.Ticks) + len(c.Y.Ticks)
	for _, s := range c.Series {
		n += 2 * len(s.Points)
	}
	b.Grow(1024 + 160*n)
	tid, did := c.ID+"-t", c.ID+"-d"
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="%s" viewBox="0 0 %g %g" role="img" aria-labelledby="%s %s" font-size="%g">`,
		esc(c.ID), width, height, tid, did, fontSize)
	fmt.Fprintf(&b, `<title id="%s">%s</title><desc id="%s">%s</desc>`, tid, esc(c.Title), did, esc(c.Desc))
	c.writeAxes(&b)
	c.writeBands(&b)
	for _, s := range c.Series {
		c.writeSeries(&b, &s)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

func (c *Chart) writeAxes(sb *strings.Builder) {
	b := svgWriter{sb}
	b.s(`<g class="axes" fill="currentColor">`)
	lastX := math.Inf(-1)
	for _, t := range c.X.Ticks {
		x := c.X.px(t.V)
		b.s(`<line class="gl" x1="`).f1(x).s(`" y1="`).g(plotTop).s(`" x2="`).f1(x).s(`" y2="`).g(plotBottom).s(`"/>`)
		if x-lastX >= 26 { // labels closer than this would overlap
			b.s(`<text x="`).f1(x).s(`" y="`).g(plotBottom + tickLen + fontSize).s(`" text-anchor="middle">`).s(esc(t.Label)).s(`</text>`)
			lastX = x
		}
	}
	for _, t := range c.Y.Ticks {
		y := c.Y.py(t.V)
		b.s(`<line class="gl" x1="`).g(plotLeft).s(`" y1="`).f1(y).s(`" x2="`).g(plotRight).s(`" y2="`).f1(y).s(`"/>`)
		b.s(`<text x="`).g(plotLeft - tickLen - 2).s(`" y="`).f1(y).s(`" text-anchor="end" dominant-baseline="middle">`).s(esc(t.Label)).s(`</text>`)
	}
	fmt.Fprintf(sb, `<path class="frame" fill="none" d="M%g %gV%gH%g"/>`, plotLeft, plotTop, plotBottom, plotRight)
	fmt.Fprintf(sb, `<text class="label" x="%g" y="%g" text-anchor="middle">%s</text>`,
		(plotLeft+plotRight)/2, height-6, esc(c.X.Label))
	fmt.Fprintf(sb, `<text class="label" x="%g" y="%g" text-anchor="start">%s</text>`, 2.0, fontSize, esc(c.Y.Label))
	b.s(`</g>`)
}

// writeSeries draws one line and its markers. Colours come as custom
// properties the stylesheet turns into stroke and fill.
func (c *Chart) writeSeries(sb *strings.Builder, s *Series) {
	if len(s.Points) == 0 {
		return
	}
	b := svgWriter{sb}
	b.s(`<g class="`).s(seriesClass(s.Colour, max(c.Colours, 1))).s(`" data-series="`).s(esc(s.Name)).s(`">`)
	b.s(`<path class="line" fill="none" d="`)
	for i, p := range s.Points {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		b.s(cmd).f1(c.X.px(p.X)).s(" ").f1(c.Y.py(p.Y))
	}
	b.s(`"`)
	if pat := dashes[s.Style%len(dashes)]; pat != "" {
		b.s(` stroke-dasharray="`).s(pat).s(`"`)
	}
	b.s(`/>`)
	if s.Dense {
		b.s(`</g>`)
		return
	}
	for _, p := range s.Points {
		cls := "mark"
		if p.Queued {
			cls = "mark queued"
		}
		b.s(`<g class="`).s(cls).s(`">`)
		writeMarker(b, s.Style%markShapes, c.X.px(p.X), c.Y.py(p.Y))
		b.s(`<title>`).s(esc(s.Name + ": " + p.XText + " → " + p.YText)).s(`</title></g>`)
	}
	b.s(`</g>`)
}

// writeBands shades each band in the text colour, faintly (no stylesheet
// rule needed), with its number at the top and its label as a tooltip.
func (c *Chart) writeBands(sb *strings.Builder) {
	if len(c.Bands) == 0 {
		return
	}
	b := svgWriter{sb}
	b.s(`<g class="bands" fill="currentColor">`)
	for i, band := range c.Bands {
		x0, x1 := c.X.px(band.From), c.X.px(band.To)
		b.s(`<g><rect x="`).f1(x0).s(`" y="`).g(plotTop).s(`" width="`).f1(math.Max(x1-x0, 1)).s(`" height="`).g(plotBottom - plotTop).s(`" fill-opacity="0.1"/>`)
		b.s(`<text x="`).f1((x0 + x1) / 2).s(`" y="`).g(plotTop + fontSize).s(`" text-anchor="middle">`).s(strconv.Itoa(i + 1)).s(`</text>`)
		b.s(`<title>`).s(esc(strconv.Itoa(i+1) + ": " + band.Label)).s(`</title></g>`)
	}
	b.s(`</g>`)
}

// marker draws shape k centred on (x, y).
func marker(k int, x, y float64) string {
	var sb strings.Builder
	writeMarker(svgWriter{&sb}, k, x, y)
	return sb.String()
}

// writeMarker writes marker's shape to b.
func writeMarker(b svgWriter, k int, x, y float64) {
	r := markSz
	switch k {
	case markSquare:
		b.s(`<rect x="`).f1(x - r*0.9).s(`" y="`).f1(y - r*0.9).s(`" width="`).f1(r * 1.8).s(`" height="`).f1(r * 1.8).s(`"/>`)
	case markTriangle:
		b.s(`<path d="M`).pt(x, y-r*1.15).s("L").pt(x+r, y+r*0.75).s("L").pt(x-r, y+r*0.75).s(`Z"/>`)
	case markDiamond:
		b.s(`<path d="M`).pt(x, y-r*1.2).s("L").pt(x+r, y).s("L").pt(x, y+r*1.2).s("L").pt(x-r, y).s(`Z"/>`)
	case markDown:
		b.s(`<path d="M`).pt(x, y+r*1.15).s("L").pt(x+r, y-r*0.75).s("L").pt(x-r, y-r*0.75).s(`Z"/>`)
	case markCross:
		b.s(`<path d="M`).pt(x-r, y-r).s("L").pt(x+r, y+r).s("M").pt(x-r, y+r).s("L").pt(x+r, y-r).s(`" class="x"/>`)
	default:
		b.s(`<circle cx="`).f1(x).s(`" cy="`).f1(y).s(`" r="`).f1(r).s(`"/>`)
	}
}

// svgWriter writes a chart's markup and numbers without fmt, which a
// report's miss would otherwise call for every coordinate of its charts.
type svgWriter struct{ b *strings.Builder }

func (w svgWriter) s(v string) svgWriter {
	w.b.WriteString(v)
	return w
}

// f1 writes v as fmt's %.1f does.
func (w svgWriter) f1(v float64) svgWriter { return w.num(v, "%.1f", 'f', 1) }

// g writes v as fmt's %g does.
func (w svgWriter) g(v float64) svgWriter { return w.num(v, "%g", 'g', -1) }

// pt writes "x y", each as %.1f.
func (w svgWriter) pt(x, y float64) svgWriter { return w.f1(x).s(" ").f1(y) }

// num writes v as fmt's verb does, which is strconv's format and prec
// but for infinities and NaN ("Inf", not strconv's "+Inf").
func (w svgWriter) num(v float64, verb string, format byte, prec int) svgWriter {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		fmt.Fprintf(w.b, verb, v)
		return w
	}
	var a [32]byte
	if format == 'f' && prec == 1 {
		w.b.Write(appendF1(a[:0], v))
		return w
	}
	w.b.Write(strconv.AppendFloat(a[:0], v, format, prec, 64))
	return w
}

// appendF1 is strconv.AppendFloat(b, v, 'f', 1, 64), the charts' every
// coordinate (a few hundred a report, a twentieth of a miss's work through
// strconv's exact decimal conversion), by way of an integer of tenths when
// that gives the same digits: away from a rounding tie and from -0.0, and
// small enough for float64 to hold the tenths exactly.
func appendF1(b []byte, v float64) []byte {
	t := v * 10
	r := math.Round(t)
	if math.Abs(t) > 1<<50 || math.Abs(math.Abs(t-math.Trunc(t))-0.5) < 1e-6 || (r == 0 && math.Signbit(v)) {
		return strconv.AppendFloat(b, v, 'f', 1, 64)
	}
	n := int64(r)
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	b = strconv.AppendInt(b, n/10, 10)
	return append(b, '.', byte('0'+n%10))
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
