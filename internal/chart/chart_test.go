package chart_test

import (
	"encoding/xml"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func localizer(t *testing.T, lang string) *i18n.Localizer {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	return b.Localizer(lang)
}

// svgDoc is what the tests read of a chart's SVG.
type svgDoc struct {
	ViewBox string `xml:"viewBox,attr"`
	Role    string `xml:"role,attr"`
	Title   string `xml:"title"`
	Desc    string `xml:"desc"`
	Axes    struct {
		Texts []string `xml:"text"`
	} `xml:"g"`
}

var number = regexp.MustCompile(`-?\d+(\.\d+)?`)

// pathPoints reads the coordinates of an M/L path.
func pathPoints(d string) [][2]float64 {
	nums := number.FindAllString(d, -1)
	var out [][2]float64
	for i := 0; i+1 < len(nums); i += 2 {
		x, _ := strconv.ParseFloat(nums[i], 64)
		y, _ := strconv.ParseFloat(nums[i+1], 64)
		out = append(out, [2]float64{x, y})
	}
	return out
}

// lines returns the d attribute of every series line, by series name.
func lines(t *testing.T, svg string) map[string][]string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	out := map[string][]string{}
	series := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			attr := map[string]string{}
			for _, a := range se.Attr {
				attr[a.Name.Local] = a.Value
			}
			if se.Name.Local == "g" && attr["data-series"] != "" {
				series = attr["data-series"]
			}
			if se.Name.Local == "path" && attr["class"] == "line" {
				out[series] = append(out[series], attr["d"])
			}
		}
	}
}

// TestRunCharts: the three charts of the hand-built run parse as XML, name
// themselves for screen readers, draw one path per context that has a
// valid or queued cell, keep every point inside the plot box, and label
// ticks with report's formatters.
func TestRunCharts(t *testing.T) {
	r := reporttest.Run()
	for _, lang := range []string{"en", "ja", "zh-Hans"} {
		l := localizer(t, lang)
		charts := chart.ForRun(l, r)
		if len(charts) != 3 {
			t.Fatalf("%d charts, want 3", len(charts))
		}
		conc, trade, prefill := charts[0], charts[1], charts[2]
		for _, c := range charts {
			var doc svgDoc
			if err := xml.Unmarshal([]byte(c.SVG()), &doc); err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			if doc.Role != "img" || doc.Title != c.Title || doc.Title == "" || doc.Desc == "" {
				t.Errorf("%s: role %q title %q desc %q", c.ID, doc.Role, doc.Title, doc.Desc)
			}
			for name, ds := range lines(t, c.SVG()) {
				for _, p := range pathPoints(ds[0]) {
					if p[0] < 56 || p[0] > 464 || p[1] < 24 || p[1] > 260 {
						t.Errorf("%s: %s has a point outside the plot box: %v", c.ID, name, p)
					}
				}
			}
		}
		// Contexts 0 (two valid, one queued) and 128K (one queued) have
		// points; 248K has none.
		got := lines(t, conc.SVG())
		if len(got) != 2 {
			t.Errorf("%s: concurrency chart has %d lines, want 2: %v", lang, len(got), got)
		}
		if len(lines(t, trade.SVG())) != 2 {
			t.Errorf("%s: trade-off chart has a line per context? %d", lang, len(lines(t, trade.SVG())))
		}
		if n := len(pathPoints(got[l.T("chart.series.context", map[string]any{"Context": "0"})][0])); n != 3 {
			t.Errorf("%s: context 0 has %d points, want 3", lang, n)
		}
		if strings.Count(conc.SVG(), `class="mark queued"`) != 2 {
			t.Errorf("%s: want 2 queued markers", lang)
		}
		if len(prefill.Series) != 1 || len(prefill.Series[0].Points) != 2 {
			t.Errorf("%s: prefill chart %+v", lang, prefill.Series)
		}
		for _, tk := range conc.Y.Ticks {
			v := int64(tk.V)
			if tk.Label != report.FormatCount(l, &v) {
				t.Errorf("%s: tick %v labelled %q", lang, v, tk.Label)
			}
			if !strings.Contains(conc.SVG(), ">"+tk.Label+"<") {
				t.Errorf("%s: tick label %q not drawn", lang, tk.Label)
			}
		}
		if top := conc.Y.Ticks[len(conc.Y.Ticks)-1].V; top < 536.8 {
			t.Errorf("y axis tops at %v, below the highest point", top)
		}
		if len(conc.X.Ticks) != 3 || conc.X.Ticks[2].Label != "16" {
			t.Errorf("x ticks %+v, want 1, 2, 16", conc.X.Ticks)
		}
		// The table holds every point and names queued ones.
		if len(conc.Table.Rows) != 4 || conc.Table.Rows[2][3] != report.StatusLabel(l, run.Queued) {
			t.Errorf("%s: table %v", lang, conc.Table.Rows)
		}
	}
}

// TestLargeNumbersUseLocaleGrouping: tick labels above 1000 are grouped
// the way the locale writes numbers.
func TestLargeNumbersUseLocaleGrouping(t *testing.T) {
	r := reporttest.Run()
	for i := range r.Decode {
		if r.Decode[i].TotalTPS != nil {
			r.Decode[i].TotalTPS = run.F(*r.Decode[i].TotalTPS * 40)
		}
	}
	l := localizer(t, "en")
	c := chart.ForRun(l, r)[0]
	if !strings.Contains(c.SVG(), ">20,000<") {
		t.Errorf("no tick 20,000 on a chart up to %v: %+v", c.Y.Max, c.Y.Ticks)
	}
}

// TestOverlay: two runs overlaid share colours by context and differ in
// dash and marker by run.
func TestOverlay(t *testing.T) {
	a, b := reporttest.Run(), reporttest.Run()
	l := localizer(t, "en")
	c := chart.ForRuns(l, "cmp", []chart.Named{{Name: "A", Run: a}, {Name: "B", Run: b}})[0]
	if len(c.Series) != 4 {
		t.Fatalf("%d series, want 4 (2 runs × 2 contexts)", len(c.Series))
	}
	if c.Series[0].Colour != c.Series[2].Colour || c.Series[0].Style == c.Series[2].Style {
		t.Errorf("A and B at one context: colours %d/%d styles %d/%d", c.Series[0].Colour, c.Series[2].Colour, c.Series[0].Style, c.Series[2].Style)
	}
	if c.Series[0].Name != "A · 0" {
		t.Errorf("series name %q", c.Series[0].Name)
	}
	if strings.Contains(c.SVG(), "<script") || !strings.Contains(c.SVG(), `id="cmp-concurrency"`) {
		t.Error("unexpected SVG")
	}
}

// TestColoursFromTheScale: line colours are points of report.Colour's
// scale, different per line.
func TestColoursFromTheScale(t *testing.T) {
	l0, d0 := chart.Colours(0, 3)
	l2, d2 := chart.Colours(2, 3)
	if bg, _ := report.Colour(0, 1); l0 != bg {
		t.Errorf("first light colour %s, want the scale's start %s", l0, bg)
	}
	if bg, _ := report.Colour(1, 1); d2 != bg {
		t.Errorf("last dark colour %s, want the scale's end %s", d2, bg)
	}
	if l0 == l2 || d0 == d2 {
		t.Error("lines share a colour")
	}
}

// A lil-bench run's power series draws two charts over time, the phases
// shaded and listed in the table; a run without a series draws none.
func TestForPower(t *testing.T) {
	l := localizer(t, "en")
	none := chart.ForPower(l, &run.Run{})
	if none != nil {
		t.Errorf("ForPower without a series = %v", none)
	}
	capped := run.ThrottlePowerCapped
	r := &run.Run{Telemetry: &run.RunTelemetry{Series: &run.PowerSeries{IntervalS: 0.5,
		Ms: []int64{0, 500, 1000, 1500}, PowerW: []float64{80, 540, 545, 90}, SMMHz: []float64{2600, 2190, 2190, 2600},
		Phases: []run.Phase{{Name: "prefill 32k", Kind: "prefill", StartMs: 400, EndMs: 1200, Throttle: &capped}}}}}
	charts := chart.ForPower(l, r)
	if len(charts) != 2 || charts[0].Empty() || len(charts[0].Bands) != 1 {
		t.Fatalf("charts = %+v", charts)
	}
	svg := charts[0].SVG()
	if !strings.Contains(svg, `fill-opacity="0.1"`) || !strings.Contains(svg, "1: prefill 32k") || strings.Contains(svg, `class="mark`) {
		t.Errorf("power chart SVG lacks the shaded phase or draws markers:\n%s", svg)
	}
	if row := charts[0].Table.Rows[0]; row[1] != "prefill 32k" || row[4] != "Power-capped" {
		t.Errorf("table row = %v", row)
	}
}
