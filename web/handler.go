package web

import (
	"errors"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// handlerFunc is a handler that returns its error instead of writing it, so
// one place (wrap) decides statuses and error pages.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// httpError is an error with the status it should answer.
type httpError struct {
	status int
	key    string // locale message id of the explanation
}

func (e *httpError) Error() string { return http.StatusText(e.status) }

var errNotFound = &httpError{status: http.StatusNotFound, key: "error.not_found"}

// wrap adapts a handlerFunc for the router: not-found errors become 404,
// refusals their 4xx, anything else a logged 500. HTML and JSON routes answer
// in their own format.
func (s *Server) wrap(h handlerFunc, asJSON bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		if err == nil {
			return
		}
		if pe, ok := problem.As(err); ok {
			if asJSON {
				s.writeProblemJSON(w, r, pe)
			} else {
				s.writeErrorPage(w, r, statusOf(pe), "error.invalid")
			}
			return
		}
		he := &httpError{status: http.StatusInternalServerError, key: "error.internal"}
		switch {
		case errors.Is(err, store.ErrNotFound):
			he = errNotFound
		case errors.As(err, &he):
		default:
			s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		if asJSON {
			s.writeJSONError(w, r, he.status, he.key)
		} else {
			s.writeErrorPage(w, r, he.status, he.key)
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
