package report

import (
	"math"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// Dash stands for a value the source did not have or the status makes
// meaningless.
const Dash = "—"

// ContextLabel names a context length the way the tool and forums do, with
// K = 1024 tokens: 0 → "0", 8192 → "8K", 253952 → "248K", 63424 → "61.9K".
// Exact multiples of 1024² read as "1M". Below 1024 tokens the count is
// shown as is. It is locale-neutral on purpose: the labels are identifiers
// people search for, like "128K".
func ContextLabel(tokens int) string {
	const k, m = 1024, 1024 * 1024
	switch {
	case tokens < k:
		return strconv.Itoa(tokens)
	case tokens%m == 0:
		return strconv.Itoa(tokens/m) + "M"
	case tokens%k == 0:
		return strconv.Itoa(tokens/k) + "K"
	default:
		return strconv.FormatFloat(float64(tokens)/k, 'f', 1, 64) + "K"
	}
}

// FormatTPSCompact is the prefill and grid notation of tok/s: from 1000 up
// no decimals ("2,186"), below one decimal ("875.0", "63.5").
func FormatTPSCompact(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	if math.Abs(*v) >= 1000 {
		return l.Dec(*v, 0)
	}
	return l.Dec(*v, 1)
}

// FormatTPS is the All-measurements notation of tok/s: always one decimal
// ("2,186.0").
func FormatTPS(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	return l.Dec(*v, 1)
}

// FormatTTFT formats a time to first token in whole milliseconds, grouped,
// with its unit: "13,783 ms".
func FormatTTFT(l *i18n.Localizer, ms *float64) string {
	if ms == nil {
		return Dash
	}
	return l.T("unit.ms", map[string]any{"V": l.Dec(*ms, 0)})
}

// FormatTBT formats a time between tokens with one decimal: "224.0 ms".
func FormatTBT(l *i18n.Localizer, ms *float64) string {
	if ms == nil {
		return Dash
	}
	return l.T("unit.ms", map[string]any{"V": l.Dec(*ms, 1)})
}

// FormatAvgActive formats average active requests with two decimals: "0.80".
func FormatAvgActive(l *i18n.Localizer, v *float64) string {
	if v == nil {
		return Dash
	}
	return l.Dec(*v, 2)
}

// FormatCount formats a token or request count, grouped: "16,374".
func FormatCount(l *i18n.Localizer, v *int64) string {
	if v == nil {
		return Dash
	}
	return l.Int(*v)
}

// FormatSeconds formats how long a cell was measured, one decimal: "29.9 s".
func FormatSeconds(l *i18n.Localizer, s *float64) string {
	if s == nil {
		return Dash
	}
	return l.T("unit.s", map[string]any{"V": l.Dec(*s, 1)})
}

// trimmed formats a setting or a size with no decimals when it is whole
// ("30", "12") and one otherwise ("0.5"): how people write them.
func trimmed(l *i18n.Localizer, v float64) string {
	if v == math.Trunc(v) {
		return l.Dec(v, 0)
	}
	return l.Dec(v, 1)
}
