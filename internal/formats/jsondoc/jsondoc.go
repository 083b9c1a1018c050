// Package jsondoc reads the JSON documents users upload and turns every way
// they can be wrong (invalid UTF-8, syntax, truncation, NaN and Infinity,
// wrong types, bad numbers) into a problem that names the JSON path, so a
// user can find the field.
//
// Every document is read with one codec, github.com/go-json-experiment/json
// (the proposed encoding/json/v2), decoded in this package alone, with
// the same options everywhere. It refuses invalid UTF-8, a name given twice
// in one object and nesting deeper than 10,000 levels itself; the one limit
// kept here is the length of an array (CheckArrays).
//
// Our own formats are read strictly: once to tell the format by its
// top-level members (ReadTop), then by their parser without checking the
// text again (Checked), or at once (Decode). The files Python benchmark
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
	"errors"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// options are how every document is read: a key matches a field of the
// same name, or failing that one equal to it without regard to case, as
// encoding/json matched them (files read before the codec changed read the
// same); names stay unique and text UTF-8, the codec's defaults.
var options = json.JoinOptions(json.MatchCaseInsensitiveNames(true), jsonv1.MatchCaseSensitiveDelimiter(true))

// Unmarshal reads data into v with the codec and options every format
// reads with. Its error is the codec's: for a reader that only tries
// (detection, optional blocks); Decode names the problem.
func Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v, options) }

// Decode reads data into v strictly. Errors are *problem.Error.
func Decode(data []byte, v any) error {
	if err := Unmarshal(data, v); err != nil {
		return problemOf(data, err)
	}
	return nil
}

// CheckUTF8 refuses input that is not valid UTF-8, naming the byte offset,
// and a byte-order mark or UTF-16: the codec refuses them too, but only
// where it reads (a lenient reader stops before the cut-off end of a file),
// and names neither the encoding nor the byte.
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

// maxDepth is the codec's nesting limit, which refuses deeper documents
// before anything is read into memory.
const maxDepth = 10000

// problemOf turns the codec's error reading data into the problem a user
// is shown: what is wrong, and the JSON path where.
func problemOf(data []byte, err error) error {
	if bad := CheckUTF8(data); bad != nil {
		return bad // the encoding before anything read from it
	}
	var sem *json.SemanticError
	if errors.As(err, &sem) {
		// The codec stops at the first problem, but the text's syntax is
		// named before any value's type, wherever it is: the problem that
		// keeps a file from being read at all comes first.
		var whole jsontext.Value
		if serr := json.Unmarshal(data, &whole); serr != nil {
			err = serr
		}
	}
	var syn *jsontext.SyntacticError
	switch {
	case errors.As(err, &syn):
		return syntaxProblem(data, syn)
	case errors.As(err, &sem) && sem.GoType != nil && (sem.Err == nil || errors.Is(sem.Err, strconv.ErrRange) || errors.Is(sem.Err, strconv.ErrSyntax)):
		// A value of another type than its field's, or a number its
		// field cannot hold; not a field's own refusal (a time that does
		// not parse), which says itself what it wants.
		return typeProblem(data, sem)
	default:
		return problem.New(problem.Malformed, "$", "problem.not_json", map[string]any{"Detail": err.Error()})
	}
}

func syntaxProblem(data []byte, syn *jsontext.SyntacticError) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return problem.New(problem.Malformed, "$", "problem.empty", nil)
	}
	if errors.Is(syn, io.ErrUnexpectedEOF) {
		return problem.New(problem.Malformed, PathAt(data, int64(len(data))), "problem.truncated", nil)
	}
	off := min(syn.ByteOffset, int64(len(data)))
	if errors.Is(syn, jsontext.ErrDuplicateName) {
		// The offset is the repeated name's; the path is its object's.
		return problem.New(problem.Invalid, PathAt(data, off), "problem.duplicate_key", map[string]any{"Key": lastName(syn.JSONPointer)})
	}
	rest := data[off:]
	for _, tok := range []string{"NaN", "Infinity", "-Infinity"} {
		if bytes.HasPrefix(rest, []byte(tok)) {
			return problem.New(problem.Invalid, PathAt(data, off), "problem.nonfinite", map[string]any{"Value": tok})
		}
	}
	if syn.Err != nil && syn.Err.Error() == "exceeded max depth" {
		// The codec's own nesting limit; its words name neither the
		// limit nor what a result file looks like.
		return problem.New(problem.Malformed, PathAt(data, off), "problem.too_deep", map[string]any{"Max": maxDepth})
	}
	detail := syn.Error()
	if syn.Err != nil {
		detail = syn.Err.Error() // the offset and path are in the message already
	}
	return problem.New(problem.Malformed, PathAt(data, off), "problem.syntax", map[string]any{"Offset": off, "Detail": detail})
}

// lastName is the last name of a JSON pointer ("/results/0/aggregate_tps":
// "aggregate_tps").
func lastName(p jsontext.Pointer) string {
	name := ""
	for tok := range p.Tokens() {
		name = tok
	}
	return name
}

// typeProblem names a value of the wrong type, or a number too large for
// a float64 (1e400), whose type is right. The codec's offset is where the
// value starts.
func typeProblem(data []byte, sem *json.SemanticError) error {
	at := PathAt(data, min(sem.ByteOffset, int64(len(data))))
	kind := sem.GoType.Kind()
	if sem.JSONKind == '0' && (kind == reflect.Float64 || kind == reflect.Float32) && errors.Is(sem.Err, strconv.ErrRange) {
		return problem.New(problem.Invalid, at, "problem.number_range", map[string]any{"Value": string(sem.JSONValue)})
	}
	got := map[jsontext.Kind]string{'"': "string", '0': "number", '{': "object", '[': "array", 't': "bool", 'f': "bool"}[sem.JSONKind]
	if sem.JSONKind == '0' && len(sem.JSONValue) > 0 && kind != reflect.Float64 && kind != reflect.Float32 {
		got += " " + string(sem.JSONValue) // a fraction or an exponent where a whole number is meant
	}
	return problem.New(problem.Invalid, at, "problem.type", map[string]any{"Want": jsonKind(kind.String()), "Got": got})
}

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
