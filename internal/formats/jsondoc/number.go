package jsondoc

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// number reads raw (not null) as the Python tools write a number: a JSON
// number, or a string holding one ("131", " 12 ", "inf", "NaN": numpy values
// through default=str, and the tokens Sanitize quotes). ok is false for
// anything else, a number too large for a float64 included.
func number(raw []byte) (v float64, ok bool) {
	if Unmarshal(raw, &v) == nil {
		return v, true
	}
	var s string
	if Unmarshal(raw, &s) != nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil
}

// Num is a number of a struct decoded whole (after SanitizeToNull), read as
// the Python tools write it: a JSON number, a number in a string (llmperf's
// json.dump(default=str) of numpy integers: "131"), or "NaN"/"inf"/""/null,
// which read as not given, as the bare tokens do once SanitizeToNull has
// made them null. Checker.Num checks it.
type Num struct {
	V   float64
	Set bool
	// Bad holds a value that is not a number at all, for the message.
	Bad string
}

// UnmarshalJSON reads a number, a numeric string, or null; anything else
// is kept in Bad rather than failing the whole document.
func (n *Num) UnmarshalJSON(b []byte) error {
	*n = Num{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	v, ok := number(b)
	switch {
	case ok && !math.IsNaN(v) && !math.IsInf(v, 0):
		n.V, n.Set = v, true
	case ok: // "NaN", "inf": not given
	case b[0] == '"':
		return Unmarshal(b, &n.Bad) // "" leaves Bad empty: not given
	default:
		// An object, array or boolean: the checker names it with its path
		// (an error from here would carry an offset into b alone).
		n.Bad = string(b[:min(len(b), 40)])
	}
	return nil
}

// Ptr returns the number or nil when it was not given.
func (n Num) Ptr() *float64 {
	if !n.Set {
		return nil
	}
	v := n.V
	return &v
}

// Checker holds the rules every number read from a tool's file goes
// through, and collects the problems of one document while they are read:
// infinities and negatives where a measurement is meant, fractions where a
// count is. Paths are JSON paths from the document's root.
type Checker struct {
	problem.List
}

// NewChecker returns a Checker of refusals of kind Invalid.
func NewChecker() *Checker { return &Checker{List: problem.List{Kind: problem.Invalid}} }

// Measure returns v when it is a finite, non-negative measurement and nil
// when it is absent or NaN (Python's "no samples"); an infinite or negative
// v is a problem (and nil).
func (c *Checker) Measure(path string, v *float64) *float64 { return c.MeasureAt(path, "", v) }

// MeasureAt is Measure of the number at path+field, the two joined only
// for a problem: a document has hundreds of numbers and seldom a problem,
// and a path built for each was a fifth of a parse's allocations.
func (c *Checker) MeasureAt(path, field string, v *float64) *float64 {
	x, ok := c.MeasureValue(path, field, v)
	if !ok {
		return nil
	}
	return &x
}

// MeasureValue is MeasureAt's number and whether there is one, for a
// caller that keeps the value rather than a pointer: one allocation fewer
// per number.
func (c *Checker) MeasureValue(path, field string, v *float64) (float64, bool) {
	switch {
	case v == nil || math.IsNaN(*v):
		return 0, false
	case math.IsInf(*v, 0):
		c.Add(path+field, "problem.nonfinite", map[string]any{"Value": strconv.FormatFloat(*v, 'g', -1, 64)})
		return 0, false
	case *v < 0:
		c.Add(path+field, "problem.negative", map[string]any{"Value": *v})
		return 0, false
	}
	return *v, true
}

// Positive is Measure, with 0 read as "no samples" (nil): tools write 0 for
// a latency or rate they could not compute.
func (c *Checker) Positive(path string, v *float64) *float64 {
	x := c.Measure(path, v)
	if x == nil || *x == 0 {
		return nil
	}
	return x
}

// MaxCount bounds counts, so sums and conversions of them cannot overflow.
const MaxCount = 1 << 50

// Count returns v as a whole count, nil when absent; negatives, fractions
// and counts over MaxCount are problems. Tools that average counts write
// 89.0 for 89.
func (c *Checker) Count(path string, v *float64) *int64 { return c.CountAt(path, "", v) }

// CountAt is Count of the number at path+field (MeasureAt).
func (c *Checker) CountAt(path, field string, v *float64) *int64 {
	n, ok := c.CountValue(path, field, v)
	if !ok {
		return nil
	}
	return run.I(n)
}

// CountValue is CountAt's count and whether there is one (MeasureValue).
func (c *Checker) CountValue(path, field string, v *float64) (int64, bool) {
	x, ok := c.MeasureValue(path, field, v)
	if !ok {
		return 0, false
	}
	if x != math.Trunc(x) || x > MaxCount {
		c.Add(path+field, "problem.integer", map[string]any{"Value": x})
		return 0, false
	}
	return int64(x), true
}

// Concurrency returns v as a concurrency of at least 1, or 0 with a problem.
func (c *Checker) Concurrency(path string, v *float64) int {
	n := c.Count(path, v)
	if n == nil || *n < 1 || *n > 1<<20 {
		var got any = "nothing"
		if v != nil {
			got = *v
		}
		c.Add(path, "problem.concurrency", map[string]any{"Value": got})
		return 0
	}
	return int(*n)
}

// Num checks a Num as a measurement, recording a problem when it was not a
// number at all.
func (c *Checker) Num(path string, n Num) *float64 {
	if n.Bad != "" {
		c.Add(path, "problem.type", map[string]any{"Want": "number", "Got": "string"})
		return nil
	}
	return c.Measure(path, n.Ptr())
}
