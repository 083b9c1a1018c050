package docs

import (
	"net/http"
	"sync"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/docs"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// formatsHTML is docs/formats.md rendered once (markdown.go).
var formatsHTML = sync.OnceValues(func() ([]byte, error) { return markdownHTML(docs.Formats) })

// Formats is GET /docs/formats: how each benchmark tool's fields become
// the report's numbers. Report pages of those tools link here.
func (s *Handlers) Formats(w http.ResponseWriter, r *http.Request) error {
	body, err := formatsHTML()
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	b := s.Base(r, l.T("docs.formats_title", nil), l.T("docs.formats_description", nil))
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return kit.Render(w, r, http.StatusOK, templates.DocsPage(b, templ.Raw(string(body))))
}
