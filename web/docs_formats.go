package web

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/a-h/templ"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"

	"github.com/speedmatrix/speedmatrix/docs"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
)

// formatsHTML is docs/formats.md rendered once: the document is part of the
// build. Raw HTML in the document is not passed through (goldmark's
// default), so the page is as safe as the rest of the site.
var formatsHTML = sync.OnceValues(func() ([]byte, error) {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithParserOptions(parser.WithAttribute()))
	var buf bytes.Buffer
	err := md.Convert(docs.Formats, &buf)
	return buf.Bytes(), err
})

// docsFormats is GET /docs/formats: how each benchmark tool's fields become
// the report's numbers. Report pages of those tools link here.
func (s *Server) docsFormats(w http.ResponseWriter, r *http.Request) error {
	body, err := formatsHTML()
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	b := s.base(r, l.T("docs.formats_title", nil), l.T("docs.formats_description", nil))
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return render(w, r, http.StatusOK, templates.DocsPage(b, templ.Raw(string(body))))
}
