package site

import (
	"net/http"
	"strings"
)

// contentSecurityPolicy allows only the site's own files: scripts and
// styles come from /static (no inline script, <style> or style=""; the
// colour scale is a stylesheet of classes, report.HeatCSS), images may
// also be data: URLs (the share page's previews), nothing may be embedded
// as an object, and forms post only here. Framing is refused; the embed
// page alone opens it (AllowFraming).
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// hstsMaxAge is two years, what browsers' preload lists ask for.
const hstsMaxAge = "max-age=63072000; includeSubDomains"

// securityHeaders sets what every answer carries before any handler runs,
// so a 404, a panic's 500 or a static file is covered as well as a page:
// the policy above, no MIME sniffing, no framing (X-Frame-Options for
// browsers older than frame-ancestors), a referrer that gives other sites
// the origin only, no powerful features, and HSTS when the site's public
// origin is https (BASE_URL), since only then does every reader come over
// TLS.
func (s *Server) securityHeaders(next http.Handler) http.Handler {
	set := securitySet(s.BaseURL)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		set.apply(w.Header())
		next.ServeHTTP(w, r)
	})
}

// headerSet is headers with values made once, shared by every answer.
type headerSet []struct {
	key   string
	value []string
}

// apply sets the headers on h: canonical keys, and no value slice made
// per request.
func (set headerSet) apply(h http.Header) {
	for _, kv := range set {
		h[kv.key] = kv.value
	}
}

// securitySet is what securityHeaders sets, for a site at baseURL.
func securitySet(baseURL string) headerSet {
	set := headerSet{
		{"Content-Security-Policy", fixed(contentSecurityPolicy)},
		{"X-Content-Type-Options", fixed("nosniff")},
		{"X-Frame-Options", fixed("DENY")},
		{"Referrer-Policy", fixed("strict-origin-when-cross-origin")},
		{"Permissions-Policy", fixed("camera=(), microphone=(), geolocation=(), payment=(), usb=()")},
		{"Cross-Origin-Opener-Policy", fixed("same-origin")},
	}
	if strings.HasPrefix(baseURL, "https://") {
		set = append(set, struct {
			key   string
			value []string
		}{"Strict-Transport-Security", fixed(hstsMaxAge)})
	}
	return set
}

// fixed is a header value shared by every answer: its capacity is its
// length, so an Add on one answer copies it instead of writing into the
// others' (and Set, Del replace it).
func fixed(v string) []string { return []string{v}[:1:1] }
