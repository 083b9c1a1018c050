package sweep

import (
	"math"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// Round returns a mean-derived count (89.0 requests, mean × count tokens) as
// a whole number, capped at jsondoc.MaxCount so it cannot overflow.
func Round(v float64) int64 {
	return int64(math.Round(math.Min(v, jsondoc.MaxCount)))
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
