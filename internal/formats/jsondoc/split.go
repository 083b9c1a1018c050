package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// Docs are the JSON documents of one file, sanitized.
type Docs struct {
	// Values are the documents: the file's values one after another, or
	// the elements of its top-level array.
	Values []json.RawMessage
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
	dec := json.NewDecoder(bytes.NewReader(clean))
	if _, err := dec.Token(); err != nil {
		return nil, syntax(clean, 0)
	}
	for dec.More() {
		start := dec.InputOffset()
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			if atEnd(err) {
				d.Truncated = true
				return d, nil
			}
			return nil, problem.Rebase(syntax(clean[start:], 0), fmt.Sprintf("$[%d]", len(d.Values)))
		}
		d.Values = append(d.Values, v)
	}
	if _, err := dec.Token(); err != nil {
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
	dec := json.NewDecoder(bytes.NewReader(clean))
	for {
		start := dec.InputOffset()
		var v json.RawMessage
		err := dec.Decode(&v)
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
		d.Values = append(d.Values, v)
	}
}

// atEnd reports an error caused by the input ending inside a value.
func atEnd(err error) bool {
	var syn *json.SyntaxError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		(errors.As(err, &syn) && syn.Error() == "unexpected end of JSON input")
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
