package site

import (
	"maps"
	"net/http"
	"net/url"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// writeErrorPage answers with the localised error page. Its frame names
// the address only as echoURL cuts it.
func (s *Server) writeErrorPage(w http.ResponseWriter, r *http.Request, status int, key string, data map[string]any) {
	l := i18n.FromContext(r.Context())
	title := templates.ErrorTitle(r.Context(), status)
	w.Header().Set("Cache-Control", "no-store")
	b := templates.NewBase(l, s.Origin(r), echoURL(r.URL), title, "")
	if err := kit.Render(w, r, status, templates.ErrorPage(b, status, l.T(key, data))); err != nil {
		s.Log.Error("error page", "err", err)
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
