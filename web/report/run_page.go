package report

import (
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/history"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/share"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// RunPage is GET /runs/{id}, the report. The page cache (web/site/cached.go) keeps
// it as bytes with a strong ETag; this renders it on a miss.
func (s *Handlers) RunPage(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !kit.ValidID(id) {
		return kit.ErrNotFound
	}
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	// The grid's metric and the price per kWh are in the address (the
	// metric switch's links and price form), so each variant is a page of
	// its own; a value the page cannot read is refused, naming it.
	qv := r.URL.Query()
	metric, ok := report.ReadMetric(qv.Get("metric"))
	if !ok {
		return badParam("metric")
	}
	price, ok := report.ReadKWhPrice(qv.Get("kwh"))
	if !ok {
		return badParam("kwh")
	}
	if p := report.KWhParam(price); qv.Get("kwh") != p {
		// Another spelling of a price (0.30, 0,3, the default written
		// out) is sent to the one address of that price, the rest of the
		// query kept, before anything is read: one page, one cache entry.
		if p == "" {
			qv.Del("kwh")
		} else {
			qv.Set("kwh", p)
		}
		target := url.URL{Path: r.URL.Path, RawQuery: qv.Encode()}
		http.Redirect(w, r, target.String(), http.StatusMovedPermanently)
		return nil
	}
	rep, err := s.store.GetRunReport(ctx, id)
	if err != nil {
		return s.GoneOr(r, id, err)
	}
	run := rep.Run
	// The address without ?lang= is the x-default page and names itself as
	// canonical (templates.NewBase), so it is a page of its own. Its links
	// are built from the path and ?lang= alone (no stray query parameters).
	page := &url.URL{Path: r.URL.Path}
	if r.URL.Query().Has("lang") {
		page.RawQuery = "lang=" + url.QueryEscape(l.Lang())
	}
	w.Header().Set("Cache-Control", "no-cache")
	origin := s.Origin(r)
	view := report.Build(run, l)
	view.SetEnergy(run, l, metric, price)
	if historyURL := historyLink(rep); historyURL != "" {
		view.HistoryURL, view.HistoryText = historyURL, l.T("history.link", map[string]any{"Engine": run.Engine.Name})
	}
	// "What differs" depends on other runs, so the page cache renews the
	// report on any change (web/site/cachepolicy.go).
	differsSection, err := s.whatDiffers(ctx, l, rep)
	if err != nil {
		return err
	}
	buf := kit.GetBuffer()
	defer kit.PutBuffer(buf)
	b := templates.NewBase(l, origin, page, view.Title, view.Description)
	b.AddPreview(share.NewPreview(run, l, origin)) // link preview tags
	if err := templates.ReportPage(b, view, chart.ForRun(l, run), share.NewPanelOf(view, run, l, origin)).Render(templ.WithChildren(ctx, differsSection), buf); err != nil {
		return err
	}
	return kit.WriteBody(w, "text/html; charset=utf-8", buf.Bytes())
}

// historyLink is the history of a run's setup when runs of an earlier
// engine version exist, else "".
func historyLink(rep *store.RunReport) string {
	if !history.EarlierExists(rep.Version, rep.Versions) {
		return ""
	}
	return history.URL(rep.Setup)
}

// badParam refuses a query parameter's value the page cannot read,
// naming the parameter.
func badParam(name string) error {
	return &kit.HTTPError{Status: http.StatusBadRequest, Key: "error.bad_param", Data: map[string]any{"Name": name}}
}
