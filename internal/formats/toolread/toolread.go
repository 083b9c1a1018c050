// Package toolread holds what the parsers of other benchmark tools' files
// (GuideLLM, GenAI-Perf/AIPerf, llmperf) share: lenient decoding of the
// non-JSON tokens Python writes, numbers written as strings, and checks that
// turn bad numbers into problems with JSON paths. Grid placement and caveat
// codes come from package sweep, shared with the other serving tools.
// It keeps the leniency inside the parsers: what they return is clean.
package toolread

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// Sanitize replaces the bare tokens NaN, Infinity and -Infinity that
// Python's json module writes (outside strings) with null, so the document
// decodes; a non-finite number then reads as "not given".
func Sanitize(data []byte) []byte { return jsondoc.SanitizeToNull(data) }

// Num is a number as the Python tools write it: a JSON number, a number in a
// string (llmperf's json.dump(default=str) of numpy integers: "131"), or
// "NaN"/"inf"/null, which read as not given.
type Num struct {
	V   float64
	Set bool
	// Bad holds a string that is not a number at all, for the message.
	Bad string
}

// UnmarshalJSON reads a number, a numeric string, or null.
func (n *Num) UnmarshalJSON(b []byte) error {
	*n = Num{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		switch {
		case err == nil && !math.IsNaN(f) && !math.IsInf(f, 0):
			n.V, n.Set = f, true
		case err == nil: // "NaN", "inf": not given
		default:
			n.Bad = s
		}
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		// An object, array or boolean: the checker names it with its path
		// (an error from here would carry an offset into b alone).
		n.Bad = string(b[:min(len(b), 40)])
		return nil
	}
	n.V, n.Set = f, true
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

// EpochTime renders seconds since the epoch as RFC 3339 in UTC; empty when
// the value is missing or not a plausible time.
func EpochTime(sec *float64) string {
	if sec == nil || *sec <= 0 || *sec > 1e11 || math.IsNaN(*sec) {
		return ""
	}
	s, frac := math.Modf(*sec)
	return time.Unix(int64(s), int64(frac*1e9)).UTC().Format(time.RFC3339)
}
