package web

import (
	"context"
	"log/slog"
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
		tag, cookie := pickLanguage(r)
		if chosen, ok := remember(r, cookie); ok {
			s.putCookie(w, r, &http.Cookie{Name: langCookie, Value: chosen, Path: "/", MaxAge: 365 * 24 * 3600})
		}
		languageHeaders(w.Header(), tag)
		ctx := i18n.WithLocalizer(r.Context(), s.bundle.Localizer(tag))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// pickLanguage is the reader's language (?lang= > cookie > Accept-Language
// > English) and the language cookie's value.
func pickLanguage(r *http.Request) (tag, cookie string) {
	if c, err := r.Cookie(langCookie); err == nil {
		cookie = c.Value
	}
	return i18n.Pick(queryValue(r, "lang"), cookie, r.Header.Get("Accept-Language")), cookie
}

// remember is the language an explicit ?lang= chose when the cookie does
// not say it yet: ok means the answer sets the cookie.
func remember(r *http.Request, cookie string) (chosen string, ok bool) {
	chosen, ok = i18n.Normalize(queryValue(r, "lang"))
	return chosen, ok && chosen != cookie
}

// varyLanguage is what chooses the language: a cache must not give one
// reader's language to another.
var varyLanguage = []string{"Accept-Language", "Cookie"}[:2:2]

// languageValues are the Content-Language values, made once.
var languageValues = func() map[string][]string {
	m := map[string][]string{}
	for _, lang := range i18n.Languages {
		m[lang.Tag] = fixed(lang.Tag)
	}
	return m
}()

// languageHeaders says on h which language answers and what chose it.
func languageHeaders(h http.Header, tag string) {
	if v, ok := languageValues[tag]; ok {
		h["Content-Language"] = v
	} else {
		h["Content-Language"] = []string{tag}
	}
	if len(h["Vary"]) == 0 {
		h["Vary"] = varyLanguage // shared: its capacity is its length (fixed)
		return
	}
	h.Add("Vary", "Accept-Language")
	h.Add("Vary", "Cookie")
}

// accessLog logs one line per request.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		s.logRequest(r, ww.Status(), ww.BytesWritten(), start)
	})
}

// logRequest is accessLog's line, at Info: as attributes, which slog
// keeps without boxing each number.
func (s *Server) logRequest(r *http.Request, status, bytes int, start time.Time) {
	s.log.LogAttrs(context.Background(), slog.LevelInfo, "http", slog.String("method", r.Method),
		slog.String("path", r.URL.Path), slog.Int("status", status), slog.Int("bytes", bytes),
		slog.Int64("ms", time.Since(start).Milliseconds()))
}
