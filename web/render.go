package web

import (
	"bytes"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/templates"
)

// render writes a page: rendered into a buffer first, so a failed render is a
// clean 500 rather than half a page.
func render(w http.ResponseWriter, r *http.Request, status int, page templ.Component) error {
	buf := getBuffer()
	defer putBuffer(buf)
	if err := page.Render(r.Context(), buf); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// base builds the frame of a page for this request.
func (s *Server) base(r *http.Request, title, description string) templates.Base {
	return templates.NewBase(i18n.FromContext(r.Context()), s.origin(r), r.URL, title, description)
}

// privateBase is base for the pages of one visitor (signing in, an
// account's own pages, a draft): search engines are asked to leave them
// out, as robots.txt does.
func (s *Server) privateBase(r *http.Request, title string) templates.Base {
	b := s.base(r, title, "")
	b.Meta = append(b.Meta, templates.MetaTag{Name: "robots", Content: "noindex, nofollow"})
	return b
}

// writeErrorPage answers with the localised error page. Its frame names
// the address only as echoURL cuts it.
func (s *Server) writeErrorPage(w http.ResponseWriter, r *http.Request, status int, key string, data map[string]any) {
	l := i18n.FromContext(r.Context())
	title := templates.ErrorTitle(r.Context(), status)
	w.Header().Set("Cache-Control", "no-store")
	b := templates.NewBase(l, s.origin(r), echoURL(r.URL), title, "")
	if err := render(w, r, status, templates.ErrorPage(b, status, l.T(key, data))); err != nil {
		s.log.Error("error page", "err", err)
		http.Error(w, http.StatusText(status), status)
	}
}

// echoParams is how many query parameters an error page's frame keeps.
const echoParams = 4

// echoURL is u as an error page's frame repeats it, in its canonical and
// alternate links and its language switcher (nineteen times): the path and
// every query parameter cut by problem.Clip, and the first echoParams
// parameters alone (the language first), so an address of 5,000
// characters makes a page of the usual size.
func echoURL(u *url.URL) *url.URL {
	q, out := u.Query(), url.Values{}
	keys := slices.Sorted(maps.Keys(q))
	if q.Has("lang") {
		keys = slices.Insert(slices.DeleteFunc(keys, func(k string) bool { return k == "lang" }), 0, "lang")
	}
	for _, k := range keys[:min(len(keys), echoParams)] {
		out.Set(problem.Clip(k), problem.Clip(q.Get(k)))
	}
	return &url.URL{Path: problem.Clip(u.Path), RawQuery: out.Encode()}
}

// renderBuffers keep the buffers pages are rendered into: a report is
// about 50 KB, which a fresh buffer reaches by doubling a dozen times,
// copying as it goes. A writer must not keep what it is given (io.Writer),
// so a buffer is free again once its bytes are written.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps an unusually large page's buffer out of the pool.
const maxPooledBuffer = 1 << 20

func getBuffer() *bytes.Buffer { return renderBuffers.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	renderBuffers.Put(b)
}
