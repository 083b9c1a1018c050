package share

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// CardWidth and CardHeight are the link-preview card's size: the 1.91:1
// image OpenGraph and Twitter's summary_large_image show at full width.
const CardWidth, CardHeight = 1200, 630

// statusGlyph marks a non-valid cell of the card's heat map, which is too
// small for a label; all are in the embedded Noto Sans.
var statusGlyph = map[run.Status]string{
	run.Queued: "≈", run.OverCapacity: "×", run.Failed: "!", run.NotMeasured: "–",
}

// cardText is every string the card shows.
type cardText struct {
	site, title, engine, summary, by string
	numbers                          []string
}

func newCardText(r *run.Run, l *i18n.Localizer) cardText {
	return cardText{site: l.T("site.name", nil), title: report.Title(r, l), engine: EngineLineDisplay(r, l),
		summary: report.Summary(r, l), numbers: Numbers(r, l),
		by: fittedByline(r, l, cardBySize, cardByWidth)}
}

// The byline's size and room on the card: left of the heat map.
const cardBySize, cardByWidth = 24, 560

// fittedByline is Byline fitted into maxW pixels by shortening the name,
// never the words around it: cut at the end, a claimed name's "(claimed,
// not verified)" would be the part lost.
func fittedByline(r *run.Run, l *i18n.Localizer, size float64, maxW int) string {
	line := Byline(r, l)
	name := []rune(r.Submitter)
	for n := len(name) - 1; n > 0 && textWidth(line, size, false) > float64(maxW); n-- {
		line = report.SubmitterLine(l, string(name[:n])+"…", r.SubmitterVerified, r.Org.Name)
	}
	return line
}

// Card draws r's link-preview card as a PNG in l's language: the site's
// name, the title (model on hardware), the engine, the headline numbers, a
// small heat map of the decode grid coloured by report.Colour (other
// statuses hatched grey with a glyph: ≈ queued, × over capacity, ! failed,
// – not measured) and the grid's shape. The embedded Noto subsets draw
// every language's words; names in other scripts come from the machine's
// fonts (see font.go).
func Card(r *run.Run, l *i18n.Localizer) ([]byte, error) {
	txt := newCardText(r, l)
	img := image.NewRGBA(image.Rect(0, 0, CardWidth, CardHeight))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	bar, _ := report.Colour(1, 1)
	fill(img, image.Rect(0, 0, 16, CardHeight), hex(bar))
	ink, grey := hex("#111111"), hex("#555555")
	d := &drawer{img: img, lang: l.Lang()}
	d.text(txt.site, 60, 78, 30, true, hex("#2a788e"), 1080)
	d.fitted(txt.title, 60, 160, 56, 34, true, ink, 1080)
	d.text(txt.engine, 60, 215, 30, false, grey, 1080)
	d.text(txt.by, 60, 262, cardBySize, false, grey, cardByWidth)
	y := 332
	for _, n := range txt.numbers {
		d.text(n, 60, y, 44, true, ink, 540)
		y += 70
	}
	d.text(txt.summary, 60, 598, 22, false, grey, 1080)
	bottom := heatMap(d, r, l, image.Rect(640, 236, 1140, 500))
	d.text(legend(r, l), 640, bottom+30, 18, false, grey, 500)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), d.err
}

// legend explains the glyphs of the statuses the grid shows:
// "≈ Requests queued  × Over capacity".
func legend(r *run.Run, l *i18n.Localizer) string {
	seen := map[run.Status]bool{}
	for _, c := range r.Decode {
		seen[c.Status] = true
	}
	var parts []string
	for _, s := range []run.Status{run.Queued, run.OverCapacity, run.Failed, run.NotMeasured} {
		if seen[s] {
			parts = append(parts, statusGlyph[s]+" "+report.StatusLabel(l, s))
		}
	}
	return strings.Join(parts, "   ")
}

// heatMap draws the decode grid into area: context labels on the left,
// concurrency labels on top, square-ish cells. It returns the map's bottom.
func heatMap(d *drawer, r *run.Run, l *i18n.Localizer, area image.Rectangle) int {
	g := report.Build(r, l).Grid
	if len(g.Rows) == 0 || len(g.Columns) == 0 {
		return area.Min.Y
	}
	const labelW, labelH = 70, 26
	cw := (area.Dx() - labelW) / len(g.Columns)
	ch := (area.Dy() - labelH) / len(g.Rows)
	cw, ch = min(cw, 90), min(ch, 60)
	x0, y0 := area.Min.X+labelW, area.Min.Y+labelH
	labelSize := float64(min(18, max(10, cw/3)))
	for i, c := range g.Columns {
		d.centred(c.Label, x0+i*cw+cw/2, y0-8, labelSize, false, hex("#333333"))
	}
	for j, row := range g.Rows {
		y := y0 + j*ch
		d.text(row.Label, area.Min.X, y+ch/2+int(labelSize/2)-2, labelSize, true, hex("#333333"), labelW-6)
		for i, c := range row.Cells {
			cell := image.Rect(x0+i*cw+1, y+1, x0+(i+1)*cw-1, y+ch-1)
			if c.BG != "" {
				fill(d.img, cell, hex(c.BG))
				continue
			}
			hatch(d.img, cell)
			if gl := statusGlyph[c.Status]; gl != "" {
				d.centred(gl, cell.Min.X+cell.Dx()/2, cell.Min.Y+cell.Dy()/2+int(float64(min(cw, ch))/5), float64(min(cw, ch))/2, true, hex("#555555"))
			}
		}
	}
	return y0 + len(g.Rows)*ch
}

// drawer writes text in one language on the card, remembering the first
// font error.
type drawer struct {
	img  *image.RGBA
	lang string
	err  error
}

func (d *drawer) face(size float64, bold bool) font.Face {
	f, err := newFace(d.lang, size, bold)
	if err != nil && d.err == nil {
		d.err = err
	}
	return f
}

// text draws s with its baseline at (x, y), cut with "…" at maxW pixels.
func (d *drawer) text(s string, x, y int, size float64, bold bool, c color.Color, maxW int) {
	f := d.face(size, bold)
	if f == nil {
		return
	}
	defer f.Close()
	s = ellipsis(f, s, maxW)
	dr := font.Drawer{Dst: d.img, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	dr.DrawString(s)
}

// fitted draws s at the largest size from size down to minSize that fits
// maxW, cutting it only at minSize.
func (d *drawer) fitted(s string, x, y int, size, minSize float64, bold bool, c color.Color, maxW int) {
	for ; size > minSize && textWidth(s, size, bold) > float64(maxW); size -= 2 {
	}
	d.text(s, x, y, size, bold, c, maxW)
}

// centred draws s centred on x with its baseline at y.
func (d *drawer) centred(s string, x, y int, size float64, bold bool, c color.Color) {
	w := int(textWidth(s, size, bold))
	d.text(s, x-w/2, y, size, bold, c, w+2)
}

// ellipsis cuts s to fit maxW pixels in face f, ending it with "…".
func ellipsis(f font.Face, s string, maxW int) string {
	if font.MeasureString(f, s).Ceil() <= maxW {
		return s
	}
	rs := []rune(s)
	for n := len(rs) - 1; n > 0; n-- {
		if t := string(rs[:n]) + "…"; font.MeasureString(f, t).Ceil() <= maxW {
			return t
		}
	}
	return "…"
}

func fill(img *image.RGBA, r image.Rectangle, c color.Color) {
	draw.Draw(img, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// hatch fills r with the grey diagonal stripes of a non-valid cell.
func hatch(img *image.RGBA, r image.Rectangle) {
	light, dark := hex("#eeeeee"), hex("#d0d0d0")
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (x+y)%10 < 3 {
				img.Set(x, y, dark)
			} else {
				img.Set(x, y, light)
			}
		}
	}
}

// hex parses "#rrggbb", the notation report.Colour returns.
func hex(s string) color.RGBA {
	v, _ := strconv.ParseUint(s[1:], 16, 32)
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}
