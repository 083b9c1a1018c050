package web

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// handlerFunc is a handler that returns its error instead of writing it, so
// one place (adapt, through s.page or s.api) decides statuses and error
// pages.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// httpError is an error with the status it should answer.
type httpError struct {
	status int
	key    string         // locale message id of the explanation
	data   map[string]any // the message's values, nil when it has none
}

func (e *httpError) Error() string { return http.StatusText(e.status) }

var errNotFound = &httpError{status: http.StatusNotFound, key: "error.not_found"}

// errDiskFull answers a write the database had no room for: 507, saying
// that nothing was stored and that reading still works.
var errDiskFull = &httpError{status: http.StatusInsufficientStorage, key: "error.disk_full"}

// errUnavailable answers while the database cannot be reached (503 with
// Retry-After, see adapt).
var errUnavailable = &httpError{status: http.StatusServiceUnavailable, key: "error.unavailable"}

// errBusy answers a sign-in, sign-up or reset that found every password
// hashing slot taken (accounts.ErrBusy): 503, come back in a moment.
var errBusy = &httpError{status: http.StatusServiceUnavailable, key: "error.busy"}

// page adapts a page's handlerFunc for the router: errors become an error
// page in the reader's language (see answer).
func (s *Server) page(h handlerFunc) http.HandlerFunc { return s.adapt(h, false) }

// api adapts an API handlerFunc for the router: errors become a JSON body,
// refusals with their problems (see answer).
func (s *Server) api(h handlerFunc) http.HandlerFunc { return s.adapt(h, true) }

// adapt runs h and answers its error: not-found errors become 404,
// refusals their 4xx, anything else a logged 500.
func (s *Server) adapt(h handlerFunc, asJSON bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sw := &startedWriter{ResponseWriter: w}
		err := h(sw, r)
		if err == nil {
			return
		}
		if sw.started || r.Context().Err() != nil {
			// The answer is already on its way, or nobody is waiting for
			// it (the client went away): there is nothing to tell anyone.
			s.log.Debug("request ended early", "path", r.URL.Path, "err", err)
			return
		}
		if rd := (*redirectTo)(nil); errors.As(err, &rd) {
			http.Redirect(w, r, rd.url, http.StatusSeeOther)
			return
		}
		if pe, ok := problem.As(err); ok {
			if asJSON {
				s.writeProblemJSON(w, r, pe)
			} else {
				s.writeErrorPage(w, r, statusOf(pe), "error.invalid", nil)
			}
			return
		}
		he := &httpError{status: http.StatusInternalServerError, key: "error.internal"}
		switch {
		case errors.Is(err, store.ErrNotFound):
			he = errNotFound
		case errors.Is(err, store.ErrNotMember):
			// Every door: the form, the API and an organisation's token.
			he = errNotMember
		case store.IsDiskFull(err):
			he = errDiskFull
			s.log.Warn("database disk full: write refused", "method", r.Method, "path", r.URL.Path, "err", err)
		case store.IsUnavailable(err):
			// Not our bug and not for long: ask the client to come back.
			s.log.Warn("database unavailable", "method", r.Method, "path", r.URL.Path, "err", err)
			w.Header().Set("Retry-After", strconv.Itoa(retryAfter))
			he = errUnavailable
		case errors.Is(err, accounts.ErrBusy):
			w.Header().Set("Retry-After", strconv.Itoa(int(accounts.HashWait/time.Second)))
			he = errBusy
		case errors.As(err, &he):
		default:
			s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		if asJSON {
			s.writeJSONError(w, r, he.status, he.key, he.data)
		} else {
			s.writeErrorPage(w, r, he.status, he.key, he.data)
		}
	}
}

// statusOf maps a refusal's kind to its HTTP status.
func statusOf(e *problem.Error) int {
	switch e.Kind {
	case problem.Malformed:
		return http.StatusBadRequest
	case problem.TooLarge:
		return http.StatusRequestEntityTooLarge
	case problem.Unsupported:
		return http.StatusUnsupportedMediaType
	default:
		return http.StatusUnprocessableEntity
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
