package ingest

import (
	"errors"
	"net/http"
)

// isMaxBytes recognises the error of an http.MaxBytesReader, so a body cut
// off by the server's own limit answers 413 like one we measured ourselves.
func isMaxBytes(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}
