package jsondoc

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// Object is one JSON object of a tool's file, read field by field so every
// problem names its JSON path. Problems go to the list it was made with.
type Object struct {
	// Path is the object's JSON path ("$", "$[2]", "$.server_info").
	Path   string
	fields map[string]json.RawMessage
	probs  *problem.List
}

// NewObject reads raw as an object at path; it records a problem and
// returns nil when raw is not an object.
func NewObject(raw json.RawMessage, path string, probs *problem.List) *Object {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		probs.Add(path, "problem.type", map[string]any{"Want": "object", "Got": kind(raw)})
		return nil
	}
	return &Object{Path: path, fields: fields, probs: probs}
}

// Fields returns the object's raw fields, for detection.
func (o *Object) Fields() map[string]json.RawMessage { return o.fields }

// At returns the JSON path of key.
func (o *Object) At(key string) string { return o.Path + Key(key) }

// Has reports whether key is present with a value other than null.
func (o *Object) Has(key string) bool {
	raw, ok := o.fields[key]
	return ok && string(raw) != "null"
}

// Float reads a number: a JSON number, NaN/Infinity as Python writes them,
// or a string holding a number ("131", "inf"). It returns nil when the key
// is absent, null or NaN (Python's "no samples"), and ±Inf as such; anything
// else is a problem.
func (o *Object) Float(key string) *float64 { return o.float(o.fields[key], o.At(key)) }

func (o *Object) float(raw json.RawMessage, at string) *float64 {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err == nil {
		return &v
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if f, ok := parseNumber(s); ok {
			if math.IsNaN(f) {
				return nil
			}
			return &f
		}
	}
	o.probs.Add(at, "problem.type", map[string]any{"Want": "number", "Got": kind(raw)})
	return nil
}

func parseNumber(s string) (float64, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "nan":
		return math.NaN(), true
	case "inf", "infinity", "+inf", "+infinity":
		return math.Inf(1), true
	case "-inf", "-infinity":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return f, err == nil
}

// Measure reads a measured quantity: like Float, but infinite and negative
// values are problems (they return nil).
func (o *Object) Measure(key string) *float64 { return o.measure(o.fields[key], o.At(key)) }

func (o *Object) measure(raw json.RawMessage, at string) *float64 {
	v := o.float(raw, at)
	switch {
	case v == nil:
		return nil
	case math.IsInf(*v, 0):
		o.probs.Add(at, "problem.nonfinite", map[string]any{"Value": strconv.FormatFloat(*v, 'g', -1, 64)})
		return nil
	case *v < 0:
		o.probs.Add(at, "problem.negative", map[string]any{"Value": *v})
		return nil
	}
	return v
}

// maxCount bounds counts so sums and conversions cannot overflow.
const maxCount = 1 << 50

// Count reads a non-negative whole number.
func (o *Object) Count(key string) *int64 {
	v := o.Measure(key)
	if v == nil {
		return nil
	}
	if *v != math.Trunc(*v) || *v > maxCount {
		o.probs.Add(o.At(key), "problem.integer", map[string]any{"Value": *v})
		return nil
	}
	n := int64(*v)
	return &n
}

// String reads a string; numbers and booleans give their JSON text, and
// anything else (absent, null, objects) gives "".
func (o *Object) String(key string) string {
	raw, ok := o.fields[key]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	switch kind(raw) {
	case "number", "boolean":
		return string(raw)
	}
	return ""
}

// Object reads a nested object; nil when absent or null (a problem when it
// is something else).
func (o *Object) Object(key string) *Object {
	if !o.Has(key) {
		return nil
	}
	return NewObject(o.fields[key], o.At(key), o.probs)
}

// Len returns the length of an array field, or -1 when it is not an array.
func (o *Object) Len(key string) int {
	var list []json.RawMessage
	if err := json.Unmarshal(o.fields[key], &list); err != nil || list == nil {
		return -1
	}
	return len(list)
}

// Floats reads an array of numbers; nil when absent, a problem when any
// element is not a non-negative finite number.
func (o *Object) Floats(key string) []float64 {
	if !o.Has(key) {
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(o.fields[key], &list); err != nil {
		o.probs.Add(o.At(key), "problem.type", map[string]any{"Want": "array", "Got": kind(o.fields[key])})
		return nil
	}
	out := make([]float64, 0, len(list))
	for i, raw := range list {
		if v := o.measure(raw, o.At(key)+"["+strconv.Itoa(i)+"]"); v != nil {
			out = append(out, *v)
		}
	}
	return out
}

// kind names the JSON type of raw for messages.
func kind(raw json.RawMessage) string {
	t := strings.TrimSpace(string(raw))
	switch {
	case t == "":
		return "nothing"
	case t == "null":
		return "null"
	case t == "true" || t == "false":
		return "boolean"
	case t[0] == '"':
		return "string"
	case t[0] == '{':
		return "object"
	case t[0] == '[':
		return "array"
	}
	return "number"
}

// Try reads a number like Float but records no problem: it returns nil for
// anything that is not one (SGLang's request_rate may be "trace").
func (o *Object) Try(key string) *float64 {
	quiet := &Object{Path: o.Path, fields: o.fields, probs: &problem.List{}}
	return quiet.Float(key)
}

// Problem records a problem at key.
func (o *Object) Problem(key, id string, data map[string]any) { o.probs.Add(o.At(key), id, data) }
