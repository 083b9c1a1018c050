// Package jsondoc reads the JSON documents users upload and turns every way
// they can be wrong (invalid UTF-8, syntax, truncation, NaN and Infinity,
// wrong types, bad numbers) into a problem that names the JSON path, so a
// user can find the field.
//
// Our own formats are read strictly (Decode). The files Python benchmark
// tools write are not always JSON, and are read leniently: bare NaN and
// Infinity tokens (Python's json.dump of a float: Sanitize), several
// documents appended to one file (JSON Lines, vLLM's --append-result) and an
// array a crashed run left without its closing bracket (llama-bench: Split),
// and numbers written as strings (numpy values through default=str: Object
// field by field, Num in a struct decoded whole). However a number is read,
// one Checker applies the rules (finite, non-negative, whole where a count
// is meant) and names the path of what breaks them. Only format parsers use
// this package: the leniency stays inside them.
package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// Decode checks data is UTF-8 and reads it into v. Errors are *problem.Error.
func Decode(data []byte, v any) error {
	if err := CheckUTF8(data); err != nil {
		return err
	}
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return syntaxProblem(data, syn)
	case errors.As(err, &typ) && strings.HasPrefix(typ.Value, "number ") && typ.Type.Kind() == reflect.Float64:
		// A number too large for a float64 (1e400): its type is right.
		return problem.New(problem.Invalid, typePath(data, typ), "problem.number_range",
			map[string]any{"Value": strings.TrimPrefix(typ.Value, "number ")})
	case errors.As(err, &typ):
		return problem.New(problem.Invalid, typePath(data, typ), "problem.type",
			map[string]any{"Want": jsonKind(typ.Type.Kind().String()), "Got": typ.Value})
	default:
		return problem.New(problem.Malformed, "$", "problem.not_json", map[string]any{"Detail": err.Error()})
	}
}

// CheckUTF8 refuses input that is not valid UTF-8, naming the byte offset:
// encoding/json would silently replace such bytes, and the stored document
// must be what the user sent.
func CheckUTF8(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte("\xef\xbb\xbf")):
		// Refused rather than skipped: the stored document is what was sent.
		return problem.New(problem.Malformed, "$", "problem.bom", nil)
	case bytes.HasPrefix(data, []byte("\xff\xfe")), bytes.HasPrefix(data, []byte("\xfe\xff")):
		return problem.New(problem.Malformed, "$", "problem.utf16", nil)
	}
	if utf8.Valid(data) {
		return nil
	}
	off := 0
	for off < len(data) {
		r, size := utf8.DecodeRune(data[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return problem.New(problem.Malformed, PathAt(data, int64(off)), "problem.utf8", map[string]any{"Offset": off})
}

// maxDepth is encoding/json's nesting limit, which refuses deeper
// documents before anything is read into memory.
const maxDepth = 10000

func syntaxProblem(data []byte, syn *json.SyntaxError) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return problem.New(problem.Malformed, "$", "problem.empty", nil)
	}
	if syn.Offset >= int64(len(data)) {
		return problem.New(problem.Malformed, PathAt(data, int64(len(data))), "problem.truncated", nil)
	}
	off := syn.Offset - 1
	if off < 0 {
		off = 0
	}
	rest := data[off:]
	for _, tok := range []string{"NaN", "Infinity", "-Infinity"} {
		if bytes.HasPrefix(rest, []byte(tok)) {
			return problem.New(problem.Invalid, PathAt(data, off), "problem.nonfinite", map[string]any{"Value": tok})
		}
	}
	if strings.HasSuffix(syn.Error(), "exceeded max depth") {
		// encoding/json's own nesting limit; its words name neither the
		// limit nor what a result file looks like.
		return problem.New(problem.Malformed, PathAt(data, off), "problem.too_deep", map[string]any{"Max": maxDepth})
	}
	return problem.New(problem.Malformed, PathAt(data, off), "problem.syntax",
		map[string]any{"Offset": off, "Detail": syn.Error()})
}

// typePath finds the path of a value of the wrong type. The error's offset
// points just past the value, so the path is taken at its last byte.
func typePath(data []byte, typ *json.UnmarshalTypeError) string {
	off := typ.Offset - 1
	for off > 0 && off < int64(len(data)) && isSpace(data[off]) {
		off--
	}
	return PathAt(data, off)
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\r' || b == '\t' }

// jsonKind names a Go kind the way a JSON user thinks of it.
func jsonKind(k string) string {
	switch k {
	case "float64", "float32", "int", "int64", "int32", "uint", "uint64":
		return "number"
	case "slice", "array":
		return "array"
	case "map", "struct":
		return "object"
	case "bool":
		return "boolean"
	default:
		return k
	}
}
