package templates

import (
	"testing"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/share"
)

// TestReportPageShare: the report draws the Share panel it is given, and
// none without one; the preview dresses the head for link previews.
func TestReportPageShare(t *testing.T) {
	r := reporttest.Run()
	doc := render(t, "en", func(l *i18n.Localizer) templ.Component {
		v := report.Build(r, l)
		b := base(l, "/runs/"+r.ID, v.Title)
		b.AddPreview(share.NewPreview(r, l, "https://speedmatrix.example"))
		return ReportPage(b, v, nil, share.NewPanel(r, l, "https://speedmatrix.example"))
	})
	if got := doc.Find("#share #share-permalink").Text(); got != "https://speedmatrix.example/runs/k3x9q2" {
		t.Errorf("permalink = %q", got)
	}
	if doc.Find(`#share a[href="/runs/k3x9q2.csv"]`).Length() != 1 {
		t.Error("the panel does not link the CSV export")
	}
	if got := doc.Find(`meta[property="og:image"]`).AttrOr("content", ""); got != "https://speedmatrix.example/runs/k3x9q2/card.png?lang=en" {
		t.Errorf("og:image = %q", got)
	}
	if got, want := doc.Find(`meta[name="description"]`).AttrOr("content", ""), doc.Find(`meta[name="twitter:description"]`).AttrOr("content", "-"); got == "" || got != want {
		t.Errorf("description %q, twitter:description %q", got, want)
	}
	if n := reportDoc(t, "en", r).Find("#share").Length(); n != 0 {
		t.Errorf("a report without a panel draws %d", n)
	}
}
