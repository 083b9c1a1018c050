package kit

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
)

// Render writes a page: rendered into a buffer first, so a failed render is a
// clean 500 rather than half a page.
func Render(w http.ResponseWriter, r *http.Request, status int, page templ.Component) error {
	buf := GetBuffer()
	defer PutBuffer(buf)
	if err := page.Render(r.Context(), buf); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, err := w.Write(buf.Bytes())
	return err
}

// Base builds the frame of a page for this request.
func (s *Server) Base(r *http.Request, title, description string) templates.Base {
	return templates.NewBase(i18n.FromContext(r.Context()), s.Origin(r), r.URL, title, description)
}

// PrivateBase is base for the pages of one visitor (signing in, an
// account's own pages, a draft): search engines are asked to leave them
// out, as robots.txt does.
func (s *Server) PrivateBase(r *http.Request, title string) templates.Base {
	b := s.Base(r, title, "")
	b.Meta = append(b.Meta, templates.MetaTag{Name: "robots", Content: "noindex, nofollow"})
	return b
}

// renderBuffers keep the buffers pages are rendered into: a report is
// about 50 KB, which a fresh buffer reaches by doubling a dozen times,
// copying as it goes. A writer must not keep what it is given (io.Writer),
// so a buffer is free again once its bytes are written.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuffer keeps an unusually large page's buffer out of the pool.
const maxPooledBuffer = 1 << 20

func GetBuffer() *bytes.Buffer { return renderBuffers.Get().(*bytes.Buffer) }

func PutBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	renderBuffers.Put(b)
}
