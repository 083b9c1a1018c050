package jsondoc

import (
	"math"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// Object is one JSON object of a tool's file, read field by field so every
// problem names its JSON path. Numbers are checked by the Checker it was
// made with, which collects the problems.
type Object struct {
	// Path is the object's JSON path ("$", "$[2]", "$.server_info").
	Path   string
	fields map[string]jsontext.Value
	c      *Checker
}

// NewObject reads raw as an object at path; it records a problem and
// returns nil when raw is not an object.
func NewObject(raw jsontext.Value, path string, c *Checker) *Object {
	var fields map[string]jsontext.Value
	if err := Unmarshal(raw, &fields); err != nil || fields == nil {
		c.Add(path, "problem.type", map[string]any{"Want": "object", "Got": kind(raw)})
		return nil
	}
	return &Object{Path: path, fields: fields, c: c}
}

// Fields returns the object's raw fields, for detection.
func (o *Object) Fields() map[string]jsontext.Value { return o.fields }

// At returns the JSON path of key.
func (o *Object) At(key string) string { return o.Path + Key(key) }

// Has reports whether key is present with a value other than null.
func (o *Object) Has(key string) bool {
	raw, ok := o.fields[key]
	return ok && string(raw) != "null"
}

// Float reads a number: a JSON number, NaN/Infinity as Python writes them
// (after Sanitize), or a string holding a number ("131", "inf"). It returns
// nil when the key is absent, null or NaN (Python's "no samples"), and ±Inf
// as such (a request rate of Infinity means "all at once"); anything else is
// a problem.
func (o *Object) Float(key string) *float64 { return o.float(o.fields[key], o.At(key)) }

func (o *Object) float(raw jsontext.Value, at string) *float64 {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	v, ok := number(raw)
	switch {
	case !ok:
		o.c.Add(at, "problem.type", map[string]any{"Want": "number", "Got": kind(raw)})
		return nil
	case math.IsNaN(v):
		return nil
	}
	return &v
}

// Measure reads a measured quantity: Float, checked by Checker.Measure.
func (o *Object) Measure(key string) *float64 { return o.c.Measure(o.At(key), o.Float(key)) }

// Positive reads a measured quantity of which 0 means "no samples":
// Float, checked by Checker.Positive.
func (o *Object) Positive(key string) *float64 { return o.c.Positive(o.At(key), o.Float(key)) }

// Count reads a non-negative whole number: Float, checked by Checker.Count.
func (o *Object) Count(key string) *int64 { return o.c.Count(o.At(key), o.Float(key)) }

// String reads a string; numbers and booleans give their JSON text, and
// anything else (absent, null, objects) gives "".
func (o *Object) String(key string) string {
	raw, ok := o.fields[key]
	if !ok {
		return ""
	}
	var s string
	if Unmarshal(raw, &s) == nil {
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
	return NewObject(o.fields[key], o.At(key), o.c)
}

// Floats reads an array of measured quantities; nil when absent, a problem
// when any element is not a non-negative finite number.
func (o *Object) Floats(key string) []float64 {
	if !o.Has(key) {
		return nil
	}
	var list []jsontext.Value
	if err := Unmarshal(o.fields[key], &list); err != nil {
		o.c.Add(o.At(key), "problem.type", map[string]any{"Want": "array", "Got": kind(o.fields[key])})
		return nil
	}
	out := make([]float64, 0, len(list))
	for i, raw := range list {
		at := o.At(key) + "[" + strconv.Itoa(i) + "]"
		if v := o.c.Measure(at, o.float(raw, at)); v != nil {
			out = append(out, *v)
		}
	}
	return out
}

// kind names the JSON type of raw for messages.
func kind(raw jsontext.Value) string {
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
	quiet := &Object{Path: o.Path, fields: o.fields, c: NewChecker()}
	return quiet.Float(key)
}

// Problem records a problem at key.
func (o *Object) Problem(key, id string, data map[string]any) { o.c.Add(o.At(key), id, data) }
