package kit

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// HandlerFunc is a handler that returns its error instead of writing it, so
// one place (web/site's adapter) decides statuses and error pages.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// HTTPError is an error with the status it should answer.
type HTTPError struct {
	Status int
	Key    string         // locale message id of the explanation
	Data   map[string]any // the message's values, nil when it has none
}

func (e *HTTPError) Error() string { return http.StatusText(e.Status) }

// ErrNotFound answers an address that names nothing stored.
var ErrNotFound = &HTTPError{Status: http.StatusNotFound, Key: "error.not_found"}

// ErrBadRequest answers a request the site cannot read.
var ErrBadRequest = &HTTPError{Status: http.StatusBadRequest, Key: "error.invalid"}

// ErrDiskFull answers a write the database had no room for: 507, saying
// that nothing was stored and that reading still works.
var ErrDiskFull = &HTTPError{Status: http.StatusInsufficientStorage, Key: "error.disk_full"}

// ErrUnavailable answers while the database cannot be reached (503 with
// Retry-After, see web/site's adapter).
var ErrUnavailable = &HTTPError{Status: http.StatusServiceUnavailable, Key: "error.unavailable"}

// ErrBusy answers a sign-in, sign-up or reset that found every password
// hashing slot taken (accounts.ErrBusy): 503, come back in a moment.
var ErrBusy = &HTTPError{Status: http.StatusServiceUnavailable, Key: "error.busy"}

// ErrGone answers a run its submitter deleted: 410, so links and search
// engines learn it is gone for good, not mistyped.
var ErrGone = &HTTPError{Status: http.StatusGone, Key: "acct.runs.gone"}

// Redirect is an error that answers 303 See Other to URL: a handler's way
// to send the reader elsewhere (to sign in, back to a form).
type Redirect struct{ URL string }

func (e *Redirect) Error() string { return "redirect to " + e.URL }

// OrRedirect is err, or without one a redirect to url.
func OrRedirect(err error, url string) error {
	if err != nil {
		return err
	}
	return &Redirect{URL: url}
}

// StatusOf maps a refusal's kind to its HTTP status.
func StatusOf(e *problem.Error) int {
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

// formBodyMax bounds a form's body: a few short fields.
const formBodyMax = 16 << 10

// ReadForm parses a small url-encoded form; a larger body is refused.
func ReadForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, formBodyMax)
	if err := r.ParseForm(); err != nil {
		return ErrBadRequest
	}
	return nil
}
