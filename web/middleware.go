package web

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// langCookie remembers a reader's explicit choice of language.
const langCookie = "lang"

// language picks the reader's language once per request (?lang= > cookie >
// Accept-Language > English), remembers an explicit choice in a cookie, and
// puts the request's own localizer in its context. Responses vary on what
// chose the language, so no cache serves one language to another reader.
func (s *Server) language(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		query := queryValue(r, "lang")
		cookie := ""
		if c, err := r.Cookie(langCookie); err == nil {
			cookie = c.Value
		}
		tag := i18n.Pick(query, cookie, r.Header.Get("Accept-Language"))
		if chosen, ok := i18n.Normalize(query); ok && chosen != cookie {
			http.SetCookie(w, &http.Cookie{Name: langCookie, Value: chosen, Path: "/",
				MaxAge: 365 * 24 * 3600, SameSite: http.SameSiteLaxMode, HttpOnly: true})
		}
		h := w.Header()
		h.Set("Content-Language", tag)
		h.Add("Vary", "Accept-Language")
		h.Add("Vary", "Cookie")
		ctx := i18n.WithLocalizer(r.Context(), s.bundle.Localizer(tag))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// accessLog logs one line per request.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		s.log.Info("http", "method", r.Method, "path", r.URL.Path, "status", ww.Status(),
			"bytes", ww.BytesWritten(), "ms", time.Since(start).Milliseconds())
	})
}
