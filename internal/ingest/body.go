package ingest

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// MaxBodyBytes is the largest document accepted, before and after
// inflating: the biggest real llm-inference-bench file is well under 1 MiB,
// and a lil-bench document with telemetry a few MiB.
const MaxBodyBytes = 16 << 20

// ReadBody reads a document of at most MaxBodyBytes from r, inflating it when
// gzipped is set (Content-Encoding: gzip, or a .gz file). A body that is too
// large is a TooLarge problem; a gzip stream that does not inflate is
// Malformed.
func ReadBody(r io.Reader, gzipped bool) ([]byte, error) {
	raw, err := readLimited(r)
	if err != nil {
		return nil, err
	}
	if !gzipped {
		return raw, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, problem.New(problem.Malformed, "$", "problem.gzip", map[string]any{"Detail": err.Error()})
	}
	out, err := readLimited(zr)
	if err != nil {
		var pe *problem.Error
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, problem.New(problem.Malformed, "$", "problem.gzip", map[string]any{"Detail": err.Error()})
	}
	return out, nil
}

// IsGzip reports whether data starts with the gzip magic number, for files
// whose name or headers do not say.
func IsGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBodyBytes+1))
	if err != nil && !isMaxBytes(err) {
		return nil, err
	}
	if isMaxBytes(err) || len(data) > MaxBodyBytes {
		return nil, problem.New(problem.TooLarge, "$", "problem.too_large", map[string]any{"MaxMiB": MaxBodyBytes >> 20})
	}
	return data, nil
}
