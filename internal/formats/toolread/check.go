package toolread

import (
	"math"

	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Checker collects the problems of one document while its numbers are
// read: negatives, fractions where a count is meant, strings that are not
// numbers. Paths are JSON paths from the document's root.
type Checker struct {
	problem.List
}

// NewChecker returns a Checker of refusals of kind Invalid.
func NewChecker() *Checker { return &Checker{List: problem.List{Kind: problem.Invalid}} }

// Measure returns v when it is a finite, non-negative measurement, nil when
// it is absent, and records a problem (returning nil) otherwise.
func (c *Checker) Measure(path string, v *float64) *float64 {
	if v == nil {
		return nil
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) {
		return nil
	}
	if *v < 0 {
		c.Add(path, "problem.negative", map[string]any{"Value": *v})
		return nil
	}
	x := *v
	return &x
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

// Count returns v as a whole count, nil when absent; negatives and
// fractions are problems. Tools that average counts write 89.0 for 89.
func (c *Checker) Count(path string, v *float64) *int64 {
	x := c.Measure(path, v)
	if x == nil {
		return nil
	}
	if *x != math.Trunc(*x) || *x > 1<<50 {
		c.Add(path, "problem.integer", map[string]any{"Value": *x})
		return nil
	}
	return run.I(int64(*x))
}

// Num reads a lenient number, recording a problem for a non-numeric string.
func (c *Checker) Num(path string, n Num) *float64 {
	if n.Bad != "" {
		c.Add(path, "problem.type", map[string]any{"Want": "number", "Got": "string"})
		return nil
	}
	return c.Measure(path, n.Ptr())
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

// Context places a cell whose requests sent mean prompt tokens on average
// (sweep.Place: the nearest grid context, and the exact mean beside it).
func Context(mean float64) (context, measured int) { return sweep.Place(mean) }

// Round returns a mean-derived count (89.0 requests, mean × count tokens) as
// a whole number, capped far above any real run so it cannot overflow.
func Round(v float64) int64 {
	return int64(math.Round(math.Min(v, 1<<50)))
}
