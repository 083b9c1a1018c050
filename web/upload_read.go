package web

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// maxFieldBytes bounds one metadata field; a launch command is the longest.
const maxFieldBytes = 64 << 10

// submission is an upload as it arrived: the document and the metadata
// fields exactly as typed (the form shows them back on error).
type submission struct {
	body     []byte
	filename string
	fields   map[string]string
}

// readSubmission reads a raw JSON body (optionally gzip-encoded), a raw
// zip or tar(.gz) of result files, or a multipart form with the document in
// part "file" (several "file" parts are one sweep: ingest.Bundle) and
// metadata fields beside it. Oversized bodies are TooLarge, other media Unsupported.
func readSubmission(w http.ResponseWriter, r *http.Request) (*submission, error) {
	// Room for the document plus the metadata fields around it.
	r.Body = http.MaxBytesReader(w, r.Body, ingest.MaxBodyBytes+1<<20)
	mediaType, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return nil, problem.New(problem.Unsupported, "Content-Type", "problem.media_type", map[string]any{"Type": r.Header.Get("Content-Type")})
	}
	switch mediaType {
	case "application/json", "application/zip", "application/x-tar", "application/gzip", "application/x-gzip":
		// Archives are told by their bytes (formats.Parse); a gzip body
		// without Content-Encoding is inflated here like a .gz file part.
		gz, err := gzipped(r.Header.Get("Content-Encoding"))
		if err != nil {
			return nil, err
		}
		body, err := ingest.ReadBody(r.Body, gz)
		if err == nil && !gz && ingest.IsGzip(body) && mediaType != "application/json" {
			body, err = ingest.ReadBody(bytes.NewReader(body), true)
		}
		if err != nil {
			return nil, err
		}
		return &submission{body: body, fields: map[string]string{}}, nil
	case "multipart/form-data":
		return readMultipart(multipart.NewReader(r.Body, params["boundary"]))
	default:
		return nil, problem.New(problem.Unsupported, "Content-Type", "problem.media_type", map[string]any{"Type": mediaType})
	}
}

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

func readMultipart(mr *multipart.Reader) (*submission, error) {
	sub := &submission{fields: map[string]string{}}
	var files []archive.File
	inflated := 0
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if isTooLarge(err) {
				return nil, problem.New(problem.TooLarge, "$", "problem.too_large", map[string]any{"MaxMiB": ingest.MaxBodyBytes >> 20})
			}
			return nil, problem.New(problem.Malformed, "file", "problem.multipart", map[string]any{"Detail": err.Error()})
		}
		name := part.FormName()
		if name == "file" {
			raw, err := ingest.ReadBody(part, false)
			if err != nil {
				return nil, err
			}
			if ingest.IsGzip(raw) {
				if raw, err = ingest.ReadBody(strings.NewReader(string(raw)), true); err != nil {
					return nil, err
				}
			}
			if len(raw) == 0 && part.FileName() == "" {
				continue // a file input left empty
			}
			// Several files are one sweep: the total inflated is bounded
			// like an archive's.
			if inflated += len(raw); inflated > archive.MaxTotalBytes {
				return nil, problem.New(problem.TooLarge, "file", "problem.formats.archive_total_large", map[string]any{"MaxMiB": archive.MaxTotalBytes >> 20})
			}
			files = append(files, archive.File{Name: part.FileName(), Data: raw})
			continue
		}
		v, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
		if err != nil {
			return nil, problem.New(problem.Malformed, name, "problem.multipart", map[string]any{"Detail": err.Error()})
		}
		if len(v) > maxFieldBytes {
			return nil, problem.New(problem.Invalid, name, "problem.field_long", map[string]any{"Max": maxFieldBytes})
		}
		sub.fields[name] = string(v)
	}
	if len(files) > 0 {
		sub.body, sub.filename = ingest.Bundle(files)
	}
	if len(sub.body) == 0 {
		return sub, problem.New(problem.Invalid, "file", "problem.no_file", nil)
	}
	return sub, nil
}

func isTooLarge(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}

// upload turns a submission into what the ingest takes. When a metadata
// field is wrong, the document is checked too, so the user sees every
// problem of the submission at once.
func (sub *submission) upload() (ingest.Upload, error) {
	meta, err := ingest.ParseMeta(func(name string) string { return sub.fields[name] })
	up := ingest.Upload{Body: sub.body, Filename: sub.filename, Meta: meta}
	if err == nil {
		return up, nil
	}
	fieldErr, _ := problem.As(err)
	if _, _, fileErr := ingest.Prepare(ingest.Upload{Body: sub.body}, time.Now()); fileErr != nil {
		if pe, ok := problem.As(fileErr); ok {
			fieldErr.Problems = append(fieldErr.Problems, pe.Problems...)
			fieldErr.Kind = pe.Kind // the document's problem is the more basic one
		}
	}
	return ingest.Upload{}, fieldErr
}
