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
		return err
	}
	l := i18n.FromContext(ctx)
	etag := `W/"` + id + "-" + strconv.FormatInt(rev, 10) + "-" + l.Lang() + "-" + s.version + `"`
	w.Header().Set("Cache-Control", "no-cache")
	if notModified(w, r, etag) {
		return nil
	}
	// The cached page is the same for every reader of this language: its
	// links are built from the bare path (no stray query parameters) and the
	// origin is part of the key, so a forged Host cannot poison it.
	origin := s.origin(r)
	key := etag + " " + origin
	if page, ok := s.pages.get(key); ok {
		return page.write(w, r)
	}
	run, err := s.store.GetRun(ctx, id)
	if err != nil {
		return err
	}
	view := report.Build(run, l)
	var buf bytes.Buffer
	b := templates.NewBase(l, origin, &url.URL{Path: r.URL.Path}, view.Title, view.Description)
	b.AddPreview(share.NewPreview(run, l, origin)) // link preview tags
	if err := templates.ReportPage(b, view, chart.ForRun(l, run), share.NewPanel(run, l, origin)).Render(ctx, &buf); err != nil {
		return err
	}
	page, err := newCachedPage(key, buf.Bytes())
	if err != nil {
		return err
	}
	s.pages.put(page.key, page)
	return page.write(w, r)
}
