package site

import (
	"net/http"
	"strings"
)

// trackingParams are query parameters that sites and newsletters add to
// a link to follow its clicks: no page reads them, and Facebook's fbclid
// differs on every click. The query every page is built from has them
// removed (withoutTracking), so no page's links carry them; a cached
// route keeps only what its page reads anyway (pageparams.go), so a click
// through Facebook is no miss of its own. Any parameter starting "utm_"
// is one too.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "dclid": true, "gbraid": true, "wbraid": true, "msclkid": true,
	"twclid": true, "ttclid": true, "li_fat_id": true, "igshid": true, "yclid": true,
	"mc_cid": true, "mc_eid": true, "_ga": true, "_gl": true, "ref_src": true,
}

// isTracking reports whether a raw query part ("key=value" or "key") is a
// tracking parameter.
func isTracking(part string) bool {
	key, _, _ := strings.Cut(part, "=")
	return strings.HasPrefix(key, "utm_") || trackingParams[key]
}

// withoutTracking is the raw query without its tracking parameters, the
// others in their order; a query with none is returned as it is, with no
// copy made.
func withoutTracking(raw string) string {
	if raw == "" {
		return raw
	}
	found := false
	for part := range strings.SplitSeq(raw, "&") {
		if isTracking(part) {
			found = true
			break
		}
	}
	if !found {
		return raw
	}
	var b strings.Builder
	for part := range strings.SplitSeq(raw, "&") {
		if part == "" || isTracking(part) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(part)
	}
	return b.String()
}

// dropTracking takes the tracking parameters off every request's query
// (withoutTracking) before anything behind it reads the query.
func dropTracking(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.URL.RawQuery = withoutTracking(r.URL.RawQuery)
		next.ServeHTTP(w, r)
	})
}
