package templates

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// telemetryRun is the report fixture with power on two cells, one of them
// power-capped, and a short power series.
func telemetryRun() *run.Run {
	r := reporttest.Run()
	capped := run.ThrottlePowerCapped
	r.Decode[0].Telemetry = run.Telemetry{PowerW: run.F(388), PowerLimitW: run.F(700)}
	r.Decode[1].Telemetry = run.Telemetry{PowerW: run.F(690), PowerLimitW: run.F(700), Throttle: &capped}
	r.Telemetry = &run.RunTelemetry{Telemetry: run.Telemetry{Throttle: &capped},
		Series: &run.PowerSeries{Ms: []int64{0, 500, 1000}, PowerW: []float64{80, 540, 90}, SMMHz: []float64{2600, 2190, 2600},
			Phases: []run.Phase{{Name: "decode C2 @ 0", Kind: "decode", StartMs: 200, EndMs: 900, Throttle: &capped}}}}
	return r
}

// The energy section, the metric switch and the throttle word render in
// every language; a run without telemetry has none of them.
func TestEnergySectionRenders(t *testing.T) {
	for _, tag := range []string{"en", "de", "es", "fr", "ja", "ko", "pt-BR", "zh-Hans"} {
		doc := reportDoc(t, tag, telemetryRun())
		if doc.Find("section#energy table.energy tbody tr").Length() != 2 {
			t.Errorf("%s: energy rows = %d, want 2", tag, doc.Find("section#energy tbody tr").Length())
		}
		if doc.Find("nav.metric-switch a").Length() != 4 || doc.Find("nav.metric-switch a[aria-current]").Length() != 1 {
			t.Errorf("%s: metric switch links wrong", tag)
		}
		if w := doc.Find(`table.grid .throttle`).Text(); w == "" {
			t.Errorf("%s: the throttled cell has no word on the grid", tag)
		}
		if doc.Find("section#energy svg.chart").Length() != 2 || doc.Find("section#charts #chart-power").Length() != 0 {
			t.Errorf("%s: the power charts belong to the energy section only", tag)
		}
	}
	doc := reportDoc(t, "en", reporttest.Run())
	if doc.Find("section#energy, nav.metric-switch, .throttle").Length() != 0 {
		t.Error("a run without telemetry shows energy views")
	}
}

// Under the cost metric the grid shows cost numbers and says so in its
// caption, from the address's price.
func TestMetricSwitchGrid(t *testing.T) {
	r := telemetryRun()
	doc := render(t, "en", func(l *i18n.Localizer) templ.Component {
		v := report.Build(r, l)
		v.SetEnergy(r, l, report.MetricCost, 0.5)
		return ReportPage(base(l, "/runs/"+r.ID, v.Title), v, chart.ForRun(l, r), nil)
	})
	if c := doc.Find("#grid-caption").Text(); c == "" || !strings.Contains(c, "0.50 per kWh") {
		t.Errorf("caption = %q", c)
	}
	first := doc.Find("table.grid tbody tr").First().Find("td").First()
	if tps := first.Find(".tps").Text(); tps != "0.849" {
		t.Errorf("first cell under cost = %q", tps)
	}
	doc.Find("nav.metric-switch a").Each(func(_ int, a *goquery.Selection) {
		if h, _ := a.Attr("href"); !strings.Contains(h, "kwh=0.5") {
			t.Errorf("switch link %q loses the price", h)
		}
	})
}
