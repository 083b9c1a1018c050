package site

import (
	"bytes"
	"html"
	"net/http"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// retryAfter is what a 503 asks clients to wait while the database is
// unreachable: long enough for a restart, short enough to notice recovery.
const retryAfter = 5

// serveStale sends an old copy of a page while its fresh version cannot be
// made (the database is down): with its age in Age, a Warning that it was
// not revalidated, and on an HTML page a discreet note saying so in the
// reader's language. It carries no ETag: the body is not the cached one.
func (s *Server) serveStale(w http.ResponseWriter, r *http.Request, p *cachedPage) {
	body, err := p.identity()
	if err != nil {
		s.writeErrorPage(w, r, http.StatusServiceUnavailable, "error.unavailable", nil)
		return
	}
	h := w.Header()
	p.applyHeader(h)
	h.Del("Etag")
	h.Set("Cache-Control", "no-store")
	h.Set("Age", age(p))
	h.Set("Warning", `111 - "Revalidation Failed"`)
	if strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		body = withStaleNote(body, i18n.FromContext(r.Context()).T("stale.note", nil))
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// withStaleNote puts the note at the top of the page's main element (or
// of its body), where a reader sees it before the figures.
func withStaleNote(page []byte, note string) []byte {
	at := bytes.Index(page, []byte(`<main`))
	if at < 0 {
		at = bytes.Index(page, []byte(`<body`))
	}
	if at < 0 {
		return page
	}
	end := bytes.IndexByte(page[at:], '>')
	if end < 0 {
		return page
	}
	at += end + 1
	tag := `<p class="stale-note" role="status">` + html.EscapeString(note) + `</p>`
	out := make([]byte, 0, len(page)+len(tag))
	out = append(out, page[:at]...)
	out = append(out, tag...)
	return append(out, page[at:]...)
}
