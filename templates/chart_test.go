package templates

import (
	"testing"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
)

// TestReportPageCharts: the report draws the charts it is given, each with
// its title and SVG, and no charts section without them.
func TestReportPageCharts(t *testing.T) {
	r := reporttest.Run()
	var charts []*chart.Chart
	doc := render(t, "en", func(l *i18n.Localizer) templ.Component {
		v := report.Build(r, l)
		charts = chart.ForRun(l, r)
		return ReportPage(base(l, "/runs/"+r.ID, v.Title), v, charts, nil)
	})
	figs := doc.Find("#charts figure.chart-fig")
	if figs.Length() != len(charts) || len(charts) == 0 {
		t.Fatalf("%d figures for %d charts", figs.Length(), len(charts))
	}
	for i, c := range charts {
		fig := figs.Eq(i)
		if fig.AttrOr("id", "") != c.ID+"-fig" || fig.Find("figcaption").Text() != c.Title {
			t.Errorf("figure %d = %q %q, want %q %q", i, fig.AttrOr("id", ""), fig.Find("figcaption").Text(), c.ID+"-fig", c.Title)
		}
	}
	if doc.Find("#charts svg").Length() == 0 {
		t.Error("no chart SVG drawn")
	}
	none := render(t, "en", func(l *i18n.Localizer) templ.Component {
		return ReportPage(base(l, "/runs/"+r.ID, "t"), report.Build(r, l), nil, nil)
	})
	if n := none.Find("#charts").Length(); n != 0 {
		t.Errorf("a report without charts draws %d charts sections", n)
	}
}
