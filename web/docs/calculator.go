package docs

import (
	"net/http"
	"sync"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/docs"
	"github.com/speedmatrix/speedmatrix/web/kit"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/calcview"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
)

// CalculatorPage is GET /calculator: the form, and with a GPU chosen the
// bound it gives. The query is the whole state, so the answer depends on
// the address and the embedded tables alone and may be cached. A field the
// calculator cannot use is answered 422 with the form and what is wrong.
func (s *Handlers) CalculatorPage(w http.ResponseWriter, r *http.Request) error {
	tables, err := calculator.Data()
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	f, probs := calcview.ParseForm(r.URL.Query())
	v := calcview.Build(l, tables, f, probs)
	status := http.StatusOK
	if len(v.Problems) > 0 {
		status = http.StatusUnprocessableEntity
	}
	title := l.T("calc.title", nil)
	if v.Result != nil {
		title = l.T("calc.result.title", map[string]any{"Model": v.Result.ModelName, "GPU": v.Result.GPUName})
	}
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return kit.Render(w, r, status, templates.CalculatorPage(s.Base(r, title, l.T("calc.description", nil)), v))
}

// calculatorDocsHTML is each language's docs/calculator.<tag>.md rendered
// once, like /docs/formats.
var calculatorDocsHTML = sync.OnceValues(func() (map[string][]byte, error) {
	out := map[string][]byte{}
	for tag, src := range docs.Calculator {
		html, err := markdownHTML(src)
		if err != nil {
			return nil, err
		}
		out[tag] = html
	}
	return out, nil
})

// CalculatorDocs is GET /docs/calculator: the formulas, their assumptions
// and limits, and every GPU and model figure with its source.
func (s *Handlers) CalculatorDocs(w http.ResponseWriter, r *http.Request) error {
	pages, err := calculatorDocsHTML()
	if err != nil {
		return err
	}
	tables, err := calculator.Data()
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	// The long document is translated into some languages only; the others
	// get English, and the page says so (docs/calculator.<tag>.md).
	bodyLang := l.Lang()
	body, ok := pages[bodyLang]
	if !ok {
		bodyLang, body = i18n.English, pages[i18n.English]
	}
	b := s.Base(r, l.T("docs.calculator_title", nil), l.T("docs.calculator_description", nil))
	w.Header().Set("Cache-Control", "public, max-age=3600")
	return kit.Render(w, r, http.StatusOK, templates.DocsCalculatorPage(b, templ.Raw(string(body)), bodyLang, calcview.BuildDocs(l, tables)))
}
