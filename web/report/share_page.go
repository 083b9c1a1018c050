package report

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// RunEmbed is GET /runs/{id}/embed: the grid alone, for an iframe on
// another site. It is the one page other origins may frame; it is not
// indexed, and names the report as its canonical page.
func (s *Handlers) RunEmbed(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	rn, done, err := s.loadShared(w, r, id, "embed")
	if err != nil || done {
		return err
	}
	l := i18n.FromContext(r.Context())
	v := report.Build(rn, l)
	b := templates.NewBase(l, s.Origin(r), &url.URL{Path: paths.Run(id), RawQuery: "lang=" + url.QueryEscape(l.Lang())}, l.T("share.embed_title", map[string]any{"Title": v.Title}), "")
	h := w.Header()
	kit.AllowFraming(h)
	h.Set("Cache-Control", "no-cache")
	return kit.Render(w, r, http.StatusOK, templates.EmbedPage(b, v, s.reportURL(r, id, nil)))
}
