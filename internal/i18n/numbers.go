package i18n

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Numbers formats numbers in one locale's notation: the grouping and decimal
// separators come from CLDR through golang.org/x/text, so 2186 is "2,186"
// in en, ja and zh and would be "2.186" in de. The digits themselves are
// written by strconv: a report page formats hundreds of numbers, and
// x/text's printer costs several microseconds each.
//
// Groups are of three digits, which holds for every language the portal
// speaks; a locale with other grouping (en-IN) would need x/text's printer.
type Numbers struct {
	group, decimal string
}

var notations sync.Map // language.Tag → Numbers

// NewNumbers returns the number notation of tag, read from CLDR once per tag.
func NewNumbers(tag language.Tag) Numbers {
	if n, ok := notations.Load(tag); ok {
		return n.(Numbers)
	}
	p := message.NewPrinter(tag)
	sample := p.Sprint(number.Decimal(1234.5, number.MinFractionDigits(1), number.MaxFractionDigits(1)))
	n := Numbers{group: between(sample, "1", "2"), decimal: between(sample, "4", "5")}
	if n.decimal == "" {
		n.decimal = "."
	}
	notations.Store(tag, n)
	return n
}

// between returns what sample holds between the first a and the following b.
func between(sample, a, b string) string {
	i := strings.Index(sample, a)
	if i < 0 {
		return ""
	}
	rest := sample[i+len(a):]
	j := strings.Index(rest, b)
	if j < 0 {
		return ""
	}
	return rest[:j]
}

// Dec formats v with exactly decimals fraction digits, grouped. Rounding is
// to the nearest, on v's exact binary value (as strconv does). The digits
// and the separators go into one stack buffer and leave it as one string:
// a report page formats several hundred numbers.
func (n Numbers) Dec(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	var digits [64]byte
	s := strconv.AppendFloat(digits[:0], v, 'f', decimals, 64)
	neg := len(s) > 0 && s[0] == '-'
	if neg {
		s = s[1:]
	}
	whole, frac := s, []byte(nil)
	if i := bytes.IndexByte(s, '.'); i >= 0 {
		whole, frac = s[:i], s[i+1:]
	}
	var out [96]byte
	b := out[:0]
	if neg && !(allZero(whole) && allZero(frac)) { // no "-0.0"
		b = append(b, '-')
	}
	b = n.appendGrouped(b, whole)
	if len(frac) > 0 {
		b = append(b, n.decimalSep()...)
		b = append(b, frac...)
	}
	return string(b)
}

// Int formats v grouped, without decimals.
func (n Numbers) Int(v int64) string {
	var digits [24]byte
	s := strconv.AppendInt(digits[:0], v, 10)
	var out [40]byte
	b := out[:0]
	if v < 0 {
		b, s = append(b, '-'), s[1:]
	}
	return string(n.appendGrouped(b, s))
}

// appendGrouped appends digits to b with the group separator between each
// three from the right.
func (n Numbers) appendGrouped(b, digits []byte) []byte {
	sep := n.groupSep()
	if len(digits) <= 3 || sep == "" {
		return append(b, digits...)
	}
	first := len(digits) % 3
	if first == 0 {
		first = 3
	}
	b = append(b, digits[:first]...)
	for i := first; i < len(digits); i += 3 {
		b = append(b, sep...)
		b = append(b, digits[i:i+3]...)
	}
	return b
}

// allZero reports whether digits holds nothing but '0'.
func allZero(digits []byte) bool {
	for _, c := range digits {
		if c != '0' {
			return false
		}
	}
	return true
}

// groupSep and decimalSep give English notation for a zero Numbers; a
// locale read by NewNumbers always has a decimal separator, so an empty
// group there means "no grouping".
func (n Numbers) groupSep() string {
	if n.decimal == "" {
		return ","
	}
	return n.group
}

func (n Numbers) decimalSep() string {
	if n.decimal == "" {
		return "."
	}
	return n.decimal
}
