package web

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/chart"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/share"
	"github.com/speedmatrix/speedmatrix/templates"
)

// runPage is GET /runs/{id}, the report. It is revalidated with an ETag
// made of the run's revision, the language and the build, checked before
// the run is loaded and rendered.
func (s *Server) runPage(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !validID(id) {
		return errNotFound
	}
	ctx := r.Context()
	rev, err := s.store.RunRevision(ctx, id)
	if err != nil {
		return s.goneOr(r, id, err)
	}
	l := i18n.FromContext(ctx)
	// The address without ?lang= is the x-default page and names itself as
	// canonical (templates.NewBase), so it is a page of its own here.
	page := &url.URL{Path: r.URL.Path}
	variant := l.Lang()
	if r.URL.Query().Has("lang") {
		page.RawQuery = "lang=" + url.QueryEscape(l.Lang())
	} else {
		variant += "-default"
	}
	etag := `W/"` + id + "-" + strconv.FormatInt(rev, 10) + "-" + variant + "-" + s.version + `"`
	w.Header().Set("Cache-Control", "no-cache")
	if notModified(w, r, etag) {
		return nil
	}
	// The cached page is the same for every reader of this language: its
	// links are built from the path and ?lang= alone (no stray query
	// parameters) and the
	// origin is part of the key, so a forged Host cannot poison it.
	origin := s.origin(r)
	key := etag + " " + origin
	if cached, ok := s.pages.get(key); ok {
		return cached.write(w, r)
	}
	run, err := s.store.GetRun(ctx, id)
	if err != nil {
		return err
	}
	view := report.Build(run, l)
	var buf bytes.Buffer
	b := templates.NewBase(l, origin, page, view.Title, view.Description)
	b.AddPreview(share.NewPreview(run, l, origin)) // link preview tags
	if err := templates.ReportPage(b, view, chart.ForRun(l, run), share.NewPanel(run, l, origin)).Render(ctx, &buf); err != nil {
		return err
	}
	cached, err := newCachedPage(key, buf.Bytes())
	if err != nil {
		return err
	}
	s.pages.put(cached.key, cached)
	return cached.write(w, r)
}
