package upload

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// readUpload turns a request into an upload: a raw JSON body (optionally
// gzip-encoded), a raw zip or tar(.gz) of result files, or a multipart form
// with the document in part "file" (several "file" parts are one sweep) and
// metadata fields beside it. ingest reads the files within its limits; this
// is only the HTTP side: the body's cap, the media type and the encoding.
// The fields come back even with an error, so a form can show them again.
func readUpload(w http.ResponseWriter, r *http.Request) (ingest.Upload, error) {
	// ingest counts the files and fields against MaxBodyBytes; the body
	// may add only the multipart framing (boundaries, part headers).
	body := capped{http.MaxBytesReader(w, r.Body, ingest.MaxBodyBytes+multipartFraming)}
	mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return ingest.Upload{}, problem.New(problem.Unsupported, "Content-Type", "problem.media_type", map[string]any{"Type": r.Header.Get("Content-Type")})
	}
	switch mediaType {
	case "application/json", "application/zip", "application/x-tar", "application/gzip", "application/x-gzip":
		// Archives are told by their bytes (formats.Parse), a gzip stream
		// also without Content-Encoding.
		gz, err := gzipped(r.Header.Get("Content-Encoding"))
		if err != nil {
			return ingest.Upload{}, err
		}
		files, err := ingest.Open(ingest.Part{Body: body, Gzipped: gz})
		return ingest.Upload{Files: files, Fields: map[string]string{}}, err
	case "multipart/form-data":
		files, fields, err := ingest.OpenMultipart(multipart.NewReader(body, params["boundary"]))
		return ingest.Upload{Files: files, Fields: fields}, err
	default:
		return ingest.Upload{}, problem.New(problem.Unsupported, "Content-Type", "problem.media_type", map[string]any{"Type": mediaType})
	}
}

// multipartFraming is room for a form's boundaries and part headers beyond
// the 16 MiB of its files and fields: a few hundred bytes per part.
const multipartFraming = 64 << 10

func gzipped(encoding string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "", "identity":
		return false, nil
	case "gzip", "x-gzip":
		return true, nil
	default:
		return false, problem.New(problem.Unsupported, "Content-Encoding", "problem.encoding", map[string]any{"Encoding": encoding})
	}
}

// capped words the server's own body cap as the refusal ingest gives for a
// document that is too large, so both answer 413 alike.
type capped struct{ io.Reader }

func (c capped) Read(p []byte) (int, error) {
	n, err := c.Reader.Read(p)
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		err = problem.New(problem.TooLarge, "$", "problem.too_large", map[string]any{"MaxMiB": ingest.MaxBodyBytes >> 20})
	}
	return n, err
}
