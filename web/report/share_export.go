package report

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/share"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// textExport is one text rendering of a run, served at /runs/{id}{ext}.
type textExport struct {
	contentType string
	attach      bool // a download rather than a page to read
	render      func(w io.Writer, r *run.Run, l *i18n.Localizer, pageURL string) error
}

// exports are the text exports by suffix (web/site/routes.go registers each).
var exports = map[string]textExport{
	".csv": {"text/csv; charset=utf-8; header=present", true, func(w io.Writer, r *run.Run, l *i18n.Localizer, _ string) error {
		return share.CSV(w, r, l)
	}},
	".md":     {"text/markdown; charset=utf-8", false, share.Markdown},
	".txt":    {"text/plain; charset=utf-8", false, share.Text},
	".bbcode": {"text/plain; charset=utf-8", false, share.BBCode},
}

// RunExport is GET /runs/{id}.csv, .md, .txt or .bbcode (ext) in the
// reader's language, revalidated like the report. The Link header names
// the report as the canonical page, so search engines index that instead.
func (s *Handlers) RunExport(ext string) kit.HandlerFunc {
	e, ok := exports[ext]
	if !ok {
		panic("web: no export " + ext) // a typo in web/site/routes.go, caught at start
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		return s.serveRunExport(w, r, chi.URLParam(r, "id"), e, ext)
	}
}

func (s *Handlers) serveRunExport(w http.ResponseWriter, r *http.Request, id string, e textExport, ext string) error {
	rn, done, err := s.loadShared(w, r, id, ext)
	if err != nil || done {
		return err
	}
	l := i18n.FromContext(r.Context())
	var buf bytes.Buffer
	if err := e.render(&buf, rn, l, s.reportURL(r, id, nil)); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("Link", "<"+s.reportURL(r, id, l)+`>; rel="canonical"`)
	if e.attach {
		h.Set("Content-Disposition", `attachment; filename="speedmatrix-`+id+ext+`"`)
	}
	return kit.WriteBody(w, e.contentType, buf.Bytes())
}

// image renders one SVG of a run.
type svgImage func(w io.Writer, r *run.Run, l *i18n.Localizer) error

var (
	GridSVG  svgImage = share.GridSVG
	BadgeSVG svgImage = share.Badge
)

// RunImage serves an SVG rendering of a run (grid.svg, badge.svg). They are
// meant for other sites' pages, so caches may keep them for an hour and
// then revalidate; an address naming the run's current revision (?v=, as
// the report's own badge does) is kept for good.
func (s *Handlers) RunImage(render svgImage) kit.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id := chi.URLParam(r, "id")
		rn, done, err := s.loadShared(w, r, id, r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:])
		if err != nil || done {
			return err
		}
		var buf bytes.Buffer
		if err := render(&buf, rn, i18n.FromContext(r.Context())); err != nil {
			return err
		}
		imageCache(w, r, rn)
		return kit.WriteBody(w, "image/svg+xml; charset=utf-8", buf.Bytes())
	}
}

// imageCache sets the Cache-Control of a run's image: a year when the
// address pins the revision it shows; an hour when it pins none or an
// earlier one (an embed made before the run was derived again); not kept
// when it names a revision the run never had, which would make ?v=7, 8, …
// each a page of the same image (KeptIf).
func imageCache(w http.ResponseWriter, r *http.Request, rn *run.Run) {
	h := w.Header()
	v := r.URL.Query().Get("v")
	if v == "" {
		h.Set("Cache-Control", "public, max-age=3600")
		return
	}
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil || n < 1 || n > rn.Revision || strconv.FormatInt(n, 10) != v:
		kit.KeptIf(w, r, false)
	case n == rn.Revision:
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	default:
		h.Set("Cache-Control", "public, max-age=3600")
	}
}
