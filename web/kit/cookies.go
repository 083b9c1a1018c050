package kit

import (
	"net/http"
	"strings"
	"time"
)

// PutCookie sets c as the site sets every cookie (it is the one place that
// calls http.SetCookie): HttpOnly, since no script of ours reads a cookie;
// SameSite=Lax, so another site's forms do not carry it; and Secure
// whenever the site is served over https (secureCookies).
func (s *Server) PutCookie(w http.ResponseWriter, r *http.Request, c *http.Cookie) {
	c.HttpOnly, c.SameSite, c.Secure = true, http.SameSiteLaxMode, s.secureCookies(r)
	http.SetCookie(w, c)
}

// secureCookies reports whether the site's cookies must be Secure: its
// configured origin (BASE_URL) is https, or this request came over TLS.
// Behind a proxy that terminates TLS the server sees plain http, so the
// configured origin decides, never the request alone.
func (s *Server) secureCookies(r *http.Request) bool {
	return strings.HasPrefix(s.BaseURL, "https://") || r.TLS != nil
}

// DropCookie tells the browser to forget its cookie name of path.
func (s *Server) DropCookie(w http.ResponseWriter, r *http.Request, name, path string) {
	s.PutCookie(w, r, &http.Cookie{Name: name, Path: path, MaxAge: -1})
}

// SetCookie sets (or, with a zero expiry, clears) one of the account
// cookies, which the whole site reads.
func (s *Server) SetCookie(w http.ResponseWriter, r *http.Request, name, value string, expires time.Time) {
	if expires.IsZero() {
		s.DropCookie(w, r, name, "/")
		return
	}
	s.PutCookie(w, r, &http.Cookie{Name: name, Value: value, Path: "/", Expires: expires,
		MaxAge: int(time.Until(expires) / time.Second)})
}
