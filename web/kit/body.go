package kit

import (
	"net/http"
	"strconv"
	"strings"
)

// framingOpen is the embed page's frame-ancestors: any site may frame it.
const framingOpen = "frame-ancestors *"

// WriteBody answers 200 with a body of the given type.
func WriteBody(w http.ResponseWriter, contentType string, body []byte) error {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	return err
}

// AllowFraming opens an answer to framing by any site: the policy's
// frame-ancestors becomes *, and X-Frame-Options, which has no "any"
// value, is dropped.
func AllowFraming(h http.Header) {
	h.Set("Content-Security-Policy", strings.Replace(h.Get("Content-Security-Policy"),
		"frame-ancestors 'none'", framingOpen, 1))
	h.Del("X-Frame-Options")
}
