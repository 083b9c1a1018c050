package jsondoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// Docs are the JSON documents of one file, sanitized.
type Docs struct {
	// Values are the documents: the file's values one after another, or
	// the elements of its top-level array.
	Values []jsontext.Value
	// Array is set when the file was one top-level array.
	Array bool
	// Truncated is set when the file ends inside a value or before an
	// array's closing bracket; Values then hold the complete ones.
	Truncated bool
}

// Path names document i in problems: "$" for a file of one object, "$[i]"
// for an array's elements and for the i-th of several documents.
func (d *Docs) Path(i int) string {
	if !d.Array && len(d.Values) == 1 {
		return "$"
	}
	return fmt.Sprintf("$[%d]", i)
}

// Split reads data as a top-level array (possibly unterminated) or as one
// or more values one after another. It fails with a *problem.Error when
// nothing complete can be read or when the text is not JSON.
func Split(data []byte) (*Docs, error) {
	if err := CheckUTF8(data); err != nil {
		return nil, err
	}
	clean := Sanitize(data)
	trimmed := bytes.TrimLeft(clean, " \t\r\n\ufeff")
	var d *Docs
	var err error
	if len(trimmed) > 0 && trimmed[0] == '[' {
		d, err = splitArray(clean)
	} else {
		d, err = splitValues(clean)
	}
	if err != nil {
		return nil, err
	}
	if len(d.Values) == 0 {
		var v any
		if err := Decode(clean, &v); err != nil {
			return nil, err
		}
		return nil, problem.New(problem.Malformed, "$", "problem.empty", nil)
	}
	return d, nil
}

func splitArray(clean []byte) (*Docs, error) {
	d := &Docs{Array: true}
	dec := jsontext.NewDecoder(bytes.NewBuffer(clean))
	if _, err := dec.ReadToken(); err != nil {
		return nil, syntax(clean, 0)
	}
	for dec.PeekKind() != ']' {
		start := nextValue(clean, dec.InputOffset())
		v, err := dec.ReadValue()
		if err != nil {
			if atEnd(err) {
				d.Truncated = true
				return d, nil
			}
			return nil, problem.Rebase(syntax(clean[start:], 0), fmt.Sprintf("$[%d]", len(d.Values)))
		}
		d.Values = append(d.Values, valueAt(clean, dec, v))
	}
	if _, err := dec.ReadToken(); err != nil {
		if atEnd(err) {
			d.Truncated = true
			return d, nil
		}
		return nil, syntax(clean, dec.InputOffset())
	}
	if rest := bytes.TrimSpace(clean[dec.InputOffset():]); len(rest) > 0 {
		return nil, syntax(clean, dec.InputOffset())
	}
	return d, nil
}

func splitValues(clean []byte) (*Docs, error) {
	d := &Docs{}
	dec := jsontext.NewDecoder(bytes.NewBuffer(clean))
	for {
		start := nextValue(clean, dec.InputOffset())
		v, err := dec.ReadValue()
		switch {
		case err == io.EOF:
			return d, nil
		case err != nil && atEnd(err) && len(d.Values) > 0:
			// The last line was cut short (an interrupted append).
			d.Truncated = true
			return d, nil
		case err != nil:
			return nil, problem.Rebase(syntax(clean[start:], 0), fmt.Sprintf("$[%d]", len(d.Values)))
		}
		d.Values = append(d.Values, valueAt(clean, dec, v))
	}
}

// First returns the first JSON value of data, read strictly, and whether
// more values follow it (JSON Lines); nil when data does not start with
// one.
func First(data []byte) (first jsontext.Value, more bool) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data))
	v, err := dec.ReadValue()
	if err != nil {
		return nil, false
	}
	first = valueAt(data, dec, v)
	return first, len(bytes.TrimSpace(data[dec.InputOffset():])) > 0
}

// valueAt is the value dec has just read, v, as the bytes of clean it
// was read from: the decoder's own copy is only good until it reads on.
func valueAt(clean []byte, dec *jsontext.Decoder, v jsontext.Value) jsontext.Value {
	end := dec.InputOffset()
	return clean[end-int64(len(v)) : end : end]
}

// nextValue is the offset of the next value after from: past white space,
// not past a comma, where a problem in that value is read from again.
func nextValue(clean []byte, from int64) int64 {
	for from < int64(len(clean)) && isSpace(clean[from]) {
		from++
	}
	return from
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\r' || b == '\t' }

// atEnd reports an error caused by the input ending inside a value.
func atEnd(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// syntax names what is wrong in clean from offset from on, through Decode so
// the message and path match the strict formats'. The decoder failed inside
// the value starting there, so a strict read of the rest fails there too.
func syntax(clean []byte, from int64) error {
	var v any
	if err := Decode(clean[from:], &v); err != nil {
		return err
	}
	return problem.New(problem.Malformed, "$", "problem.syntax", map[string]any{"Offset": from, "Detail": "unexpected value"})
}
