package site

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// page adapts a page's HandlerFunc for the router: errors become an error
// page in the reader's language (see answer).
func (s *Server) page(h kit.HandlerFunc) http.HandlerFunc { return s.adapt(h, false) }

// json adapts an API HandlerFunc for the router: errors become a JSON body,
// refusals with their problems (see answer).
func (s *Server) json(h kit.HandlerFunc) http.HandlerFunc { return s.adapt(h, true) }

// adapt runs h and answers its error: not-found errors become 404,
// refusals their 4xx, anything else a logged 500.
func (s *Server) adapt(h kit.HandlerFunc, asJSON bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sw := &startedWriter{ResponseWriter: w}
		err := h(sw, r)
		if err == nil {
			return
		}
		if sw.started || r.Context().Err() != nil {
			// The answer is already on its way, or nobody is waiting for
			// it (the client went away): there is nothing to tell anyone.
			s.Log.Debug("request ended early", "path", r.URL.Path, "err", err)
			return
		}
		if rd := (*kit.Redirect)(nil); errors.As(err, &rd) {
			http.Redirect(w, r, rd.URL, http.StatusSeeOther)
			return
		}
		if pe, ok := problem.As(err); ok {
			if asJSON {
				kit.WriteProblemJSON(w, r, pe)
			} else {
				s.writeErrorPage(w, r, kit.StatusOf(pe), "error.invalid", nil)
			}
			return
		}
		he := &kit.HTTPError{Status: http.StatusInternalServerError, Key: "error.internal"}
		switch {
		case errors.Is(err, store.ErrNotFound):
			he = kit.ErrNotFound
		case errors.Is(err, store.ErrNotMember):
			// Every door: the form, the API and an organisation's token.
			he = kit.ErrNotMember
		case store.IsDiskFull(err):
			he = kit.ErrDiskFull
			s.Log.Warn("database disk full: write refused", "method", r.Method, "path", r.URL.Path, "err", err)
		case store.IsUnavailable(err):
			// Not our bug and not for long: ask the client to come back.
			s.Log.Warn("database unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
			he = kit.ErrUnavailable
		case errors.Is(err, accounts.ErrBusy):
			w.Header().Set("Retry-After", strconv.Itoa(int(accounts.HashWait/time.Second)))
			he = kit.ErrBusy
		case errors.As(err, &he):
		default:
			s.Log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		if asJSON {
			kit.WriteJSONError(w, r, he.Status, he.Key, he.Data)
		} else {
			s.writeErrorPage(w, r, he.Status, he.Key, he.Data)
		}
	}
}

// startedWriter notes whether a handler began its answer, after which an
// error can no longer become an error page.
type startedWriter struct {
	http.ResponseWriter
	started bool
}

func (w *startedWriter) WriteHeader(code int) {
	w.started = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *startedWriter) Write(b []byte) (int, error) {
	w.started = true
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *startedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
