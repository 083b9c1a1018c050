package site

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// langCookie remembers a reader's explicit choice of language.
const langCookie = "lang"

// language picks the reader's language once per request (?lang= > cookie >
// Accept-Language > English), remembers an explicit choice in a cookie, and
// puts the request's own localizer in its context. Responses vary on what
// chose the language, so no cache serves one language to another reader.
// A cached page's request has its language picked already, by the page
// cache (cachedAnswer), which answers before the router.
func (s *Server) language(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, chosen := r.Context().Value(chosenLanguage{}).(string); chosen {
			next.ServeHTTP(w, r)
			return
		}
		tag := s.announceLanguage(w, r)
		next.ServeHTTP(w, r.WithContext(s.withLanguage(r.Context(), tag)))
	})
}

// chosenLanguage is the context key of the language tag picked for a
// request.
type chosenLanguage struct{}

// withLanguage is ctx with the language tag chosen and its localizer.
func (s *Server) withLanguage(ctx context.Context, tag string) context.Context {
	return context.WithValue(i18n.WithLocalizer(ctx, s.bundle.Localizer(tag)), chosenLanguage{}, tag)
}

// announceLanguage picks the reader's language (languageOf), says on the
// answer which language answers and what chose it, sets the language
// cookie when ?lang= chose anew, and returns the language's tag.
func (s *Server) announceLanguage(w http.ResponseWriter, r *http.Request) (tag string) {
	tag, remember := languageOf(r)
	if remember {
		s.PutCookie(w, r, &http.Cookie{Name: langCookie, Value: tag, Path: "/", MaxAge: 365 * 24 * 3600})
	}
	languageHeaders(w.Header(), tag)
	return tag
}

// languageOf is the reader's language (?lang= > cookie > Accept-Language >
// English); remember is true when an explicit ?lang= chose it and the
// language cookie does not say it yet.
func languageOf(r *http.Request) (tag string, remember bool) {
	var cookie string
	if c, err := r.Cookie(langCookie); err == nil {
		cookie = c.Value
	}
	if chosen, ok := i18n.Normalize(queryValue(r, langParam)); ok {
		return chosen, chosen != cookie
	}
	return i18n.Pick("", cookie, r.Header.Get("Accept-Language")), false
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

// observe counts and times every request by the route pattern it
// matched (metrics.go) and logs a line for it (logRequest, unless
// Config.QuietRequests leaves that line out), both from one
// wrapped writer that notes the status and the bytes sent. The writer is
// pooled: a hit allocates as little as net/http does.
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ow := observedWriters.Get().(*observedWriter)
		ow.ResponseWriter = w
		next.ServeHTTP(ow, r)
		end := time.Now()
		s.metrics.observe(routeOf(r), r.Method, ow.status, end.Sub(start))
		if !s.quietRequests {
			s.logRequest(r, ow.status, ow.bytes, end, end.Sub(start))
		}
		*ow = observedWriter{}
		observedWriters.Put(ow)
	})
}

// routeOf is the route pattern r matched, "unmatched" when none (not its
// path, so the metrics' label set stays small). The router sets r.Pattern
// on the request it passes down, which is r unless a middleware before
// the router made a copy (writesOnPrimary, for a write), and so does the
// page cache, which may answer before the router routes; a router mounted
// below (the API's) adds to the pattern after: the route context says it
// then, built anew.
func routeOf(r *http.Request) string {
	rc := chi.RouteContext(r.Context())
	if rc == nil {
		return "unmatched"
	}
	if len(rc.RoutePatterns) <= 1 && r.Pattern != "" {
		return r.Pattern
	}
	if p := rc.RoutePattern(); p != "" {
		return p
	}
	return "unmatched"
}

var observedWriters = sync.Pool{New: func() any { return new(observedWriter) }}

// observedWriter notes an answer's status and the bytes of its body, as
// chi's middleware.WrapResponseWriter does: the first status written (a
// 1xx but 101 passes through unnoted), a later one dropped, 200 when the
// body comes first.
type observedWriter struct {
	http.ResponseWriter
	status, bytes int
	wrote         bool // a final status is written
}

func (w *observedWriter) WriteHeader(code int) {
	if code >= 100 && code <= 199 && code != http.StatusSwitchingProtocols {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	if !w.wrote {
		w.status, w.wrote = code, true
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *observedWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// ReadFrom lets io.Copy (the file server) hand the body to net/http's own
// ReadFrom, as it would without the wrapper.
func (w *observedWriter) ReadFrom(src io.Reader) (int64, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := io.Copy(w.ResponseWriter, src)
	w.bytes += int(n)
	return n, err
}

// Flush sends what is buffered, when the writer below can.
func (w *observedWriter) Flush() {
	w.wrote = true
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the writer below.
func (w *observedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequest is observe's line, at Info, as of end: as attributes, which slog keeps
// without boxing each number, handed to the logger's handler as
// Logger.LogAttrs would but without the caller's program counter, which
// only a handler that prints the source reads (the binary's does not)
// and which costs a stack walk per request.
func (s *Server) logRequest(r *http.Request, status, bytes int, end time.Time, took time.Duration) {
	ctx := context.Background()
	h := s.Log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	rec := slog.NewRecord(end, slog.LevelInfo, "http", 0)
	rec.AddAttrs(slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", status),
		slog.Int("bytes", bytes), slog.Int64("ms", took.Milliseconds()))
	_ = h.Handle(ctx, rec)
}
