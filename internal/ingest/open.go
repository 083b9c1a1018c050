package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"mime/multipart"
	"sync"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// MaxBodyBytes is the largest document accepted, before and after
// inflating: the biggest real llm-inference-bench file is well under 1 MiB,
// and a lil-bench document with telemetry a few MiB.
const MaxBodyBytes = 16 << 20

// MaxFieldBytes bounds one metadata field; a launch command is the longest.
const MaxFieldBytes = 64 << 10

// Part is one file as a door received it: a request body, a multipart file
// part, a file named on the command line.
type Part struct {
	// Name is the uploader's name for the file ("" for a request body); a
	// label only, never a path.
	Name string
	Body io.Reader
	// Gzipped says the door knows the bytes are gzip (Content-Encoding, a
	// .gz name). A gzip stream is also recognised by its first bytes.
	Gzipped bool
}

// Open reads the files of one upload: each within MaxBodyBytes before and
// after inflating, all of them together within the archive limit, since
// several files are one sweep as an archive's files are. A read error
// that is already a refusal (a door's own size cap, see web) is returned
// as it is; a gzip stream that does not inflate is Malformed.
func Open(parts ...Part) ([]archive.File, error) {
	var o opener
	for _, p := range parts {
		if err := o.add(p, false); err != nil {
			return nil, err
		}
	}
	return o.files, nil
}

// OpenMultipart reads a multipart form: every part named "file" is a file
// of the upload (a file input left empty is skipped), every other part a
// metadata field of at most MaxFieldBytes, as typed. The parts together,
// as sent, stay within MaxBodyBytes: the cap is per upload, not per file.
// Files come back in the order they arrived. No file at all is refused under the name "file", with
// the fields, so a form can show what the user typed.
func OpenMultipart(mr *multipart.Reader) (files []archive.File, fields map[string]string, err error) {
	o := opener{sentCap: MaxBodyBytes}
	fields = map[string]string{}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if pe, ok := problem.As(err); ok {
				return nil, fields, pe
			}
			return nil, fields, problem.New(problem.Malformed, "file", "problem.multipart", map[string]any{"Detail": err.Error()})
		}
		name := part.FormName()
		if name == "file" {
			if err := o.add(Part{Name: part.FileName(), Body: part}, true); err != nil {
				if _, ok := problem.As(err); !ok {
					err = problem.New(problem.Malformed, "file", "problem.multipart", map[string]any{"Detail": err.Error()})
				}
				return nil, fields, err
			}
			continue
		}
		v, err := io.ReadAll(io.LimitReader(part, MaxFieldBytes+1))
		if err != nil {
			return nil, fields, problem.New(problem.Malformed, name, "problem.multipart", map[string]any{"Detail": err.Error()})
		}
		if len(v) > MaxFieldBytes {
			return nil, fields, problem.New(problem.Invalid, name, "problem.field_long", map[string]any{"Max": MaxFieldBytes})
		}
		if err := o.count(len(v)); err != nil {
			return nil, fields, err
		}
		fields[name] = string(v)
	}
	if len(o.files) == 0 {
		return nil, fields, problem.New(problem.Invalid, "file", "problem.no_file", nil)
	}
	return o.files, fields, nil
}

// opener gathers the files of one upload within the limits.
type opener struct {
	files    []archive.File
	sent     int // bytes as received, every file and field together
	sentCap  int // the most sent may reach; 0: no cap beyond each file's
	inflated int
}

// add reads one file; with skipEmpty, an empty part without a file name
// (a file input left empty) is no file.
func (o *opener) add(p Part, skipEmpty bool) error {
	data, err := readLimited(p.Body)
	if err != nil {
		return err
	}
	if err := o.count(len(data)); err != nil {
		return err
	}
	if p.Gzipped || archive.Detect(data) == archive.Gzip {
		// Once: gzip in gzip is left to the parser, which refuses an
		// archive in an archive.
		if data, err = inflate(data); err != nil {
			return err
		}
	}
	if skipEmpty && len(data) == 0 && p.Name == "" {
		return nil
	}
	if o.inflated += len(data); o.inflated > archive.MaxTotalBytes {
		return problem.New(problem.TooLarge, "file", "problem.formats.archive_total_large", map[string]any{"MaxMiB": archive.MaxTotalBytes >> 20})
	}
	o.files = append(o.files, archive.File{Name: p.Name, Data: data})
	return nil
}

// count adds n bytes received to the upload's total, refused past sentCap.
func (o *opener) count(n int) error {
	if o.sent += n; o.sentCap > 0 && o.sent > o.sentCap {
		return tooLarge()
	}
	return nil
}

func inflate(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, problem.New(problem.Malformed, "$", "problem.gzip", map[string]any{"Detail": err.Error()})
	}
	out, err := readLimited(zr)
	if err != nil {
		if _, ok := problem.As(err); ok {
			return nil, err
		}
		return nil, problem.New(problem.Malformed, "$", "problem.gzip", map[string]any{"Detail": err.Error()})
	}
	return out, nil
}

// readLimited reads at most MaxBodyBytes; more is a TooLarge problem. It
// reads into a pooled buffer and returns a copy of the right size:
// io.ReadAll grew its slice from 512 bytes, ten allocations and 49 KB of
// garbage for a 14 KB document, at every upload.
func readLimited(r io.Reader) ([]byte, error) {
	buf := readBuffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledRead { // a rare large upload's buffer is not kept
			buf.Reset()
			readBuffers.Put(buf)
		}
	}()
	buf.Reset()
	if _, err := buf.ReadFrom(io.LimitReader(r, MaxBodyBytes+1)); err != nil {
		return nil, err
	}
	if buf.Len() > MaxBodyBytes {
		return nil, tooLarge()
	}
	return append([]byte{}, buf.Bytes()...), nil
}

// maxPooledRead is the largest buffer readBuffers keeps.
const maxPooledRead = 1 << 20

var readBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func tooLarge() error {
	return problem.New(problem.TooLarge, "$", "problem.too_large", map[string]any{"MaxMiB": MaxBodyBytes >> 20})
}
