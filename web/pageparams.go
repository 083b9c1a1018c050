package web

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// langParam chooses the page's language (middleware.go).
const langParam = "lang"

// pageParams reduces a cached route's query to the parameters its page
// reads (pageQuery) before anything behind it reads the query, so that the
// language, the handler and the page's key see the same ones. It runs
// after routing (a group's middleware), where the route's pattern is
// known; a hit answered before the router is reduced the same way
// (serveHit).
func pageParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rc := chi.RouteContext(r.Context()); rc != nil {
			if route, ok := cachedRoutes[rc.RoutePattern()]; ok {
				r.URL.RawQuery = pageQuery(route.params, r.URL.RawQuery)
			}
		}
		next.ServeHTTP(w, r)
	})
}

// pageQuery is the raw query reduced to params (sorted): their parts in
// params' order, a parameter's repeated values in the order they came, and
// ?lang= once, as the tag it names (dropped when it names none: it
// chooses no language). Any other part is dropped, the
// page as if the link had not carried it: a parameter not listed, an empty
// part, a name written with escapes, a part holding ';' (which
// url.ParseQuery skips anyway). A query in that form already, as the
// site's own links are (url.Values.Encode sorts by name), is returned as
// it is, with no copy made: a warm hit builds its key without allocating.
func pageQuery(params []string, raw string) string {
	if raw == "" || inPageForm(params, raw) {
		return raw
	}
	return reducedQuery(params, raw)
}

// paramAt is the index in params of the raw part's name, -1 when the part
// is not kept under any.
func paramAt(params []string, part string) int {
	name, value, _ := strings.Cut(part, "=")
	if value == "" || strings.IndexByte(part, ';') >= 0 {
		return -1
	}
	return slices.Index(params, name)
}

// inPageForm reports whether raw is what pageQuery would make of it.
func inPageForm(params []string, raw string) bool {
	last, langs := 0, 0
	for part := range strings.SplitSeq(raw, "&") {
		i := paramAt(params, part)
		if i < last { // -1 included
			return false
		}
		if params[i] == langParam {
			langs++
			if _, v, _ := strings.Cut(part, "="); langs > 1 || !isLangTag(v) {
				return false
			}
		}
		last = i
	}
	return true
}

// reducedQuery is pageQuery's copy of raw, for a query not in that form.
func reducedQuery(params []string, raw string) string {
	var kept []string
	seenLang := false
	for part := range strings.SplitSeq(raw, "&") {
		i := paramAt(params, part)
		if i < 0 {
			continue
		}
		if params[i] == langParam {
			if seenLang {
				continue // the first one chooses, as Query().Get reads it
			}
			seenLang = true
			if part = langPart(part); part == "" {
				continue
			}
		}
		kept = append(kept, part)
	}
	slices.SortStableFunc(kept, func(a, b string) int { return paramAt(params, a) - paramAt(params, b) })
	return strings.Join(kept, "&")
}

// langPart is a ?lang= part as the tag it names, "" when it names none.
func langPart(part string) string {
	_, v, _ := strings.Cut(part, "=")
	v, err := url.QueryUnescape(v)
	if err != nil {
		return ""
	}
	tag, ok := i18n.Normalize(v)
	if !ok {
		return ""
	}
	return langParam + "=" + tag
}

// isLangTag reports whether v is a supported tag as written.
func isLangTag(v string) bool {
	return slices.ContainsFunc(i18n.Languages, func(l i18n.Language) bool { return l.Tag == v })
}
