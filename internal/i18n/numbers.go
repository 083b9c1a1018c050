package i18n

import (
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
// to the nearest, on v's exact binary value (as strconv does).
func (n Numbers) Dec(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	out := n.grouped(whole)
	if frac != "" {
		out += n.decimalSep() + frac
	}
	if neg && strings.Trim(whole+frac, "0") != "" { // no "-0.0"
		out = "-" + out
	}
	return out
}

// Int formats v grouped, without decimals.
func (n Numbers) Int(v int64) string {
	s := strconv.FormatInt(v, 10)
	if v < 0 {
		return "-" + n.grouped(s[1:])
	}
	return n.grouped(s)
}

func (n Numbers) grouped(digits string) string {
	sep := n.groupSep()
	if len(digits) <= 3 || sep == "" {
		return digits
	}
	var b strings.Builder
	b.Grow(len(digits) + len(digits)/3*len(sep))
	first := len(digits) % 3
	if first == 0 {
		first = 3
	}
	b.WriteString(digits[:first])
	for i := first; i < len(digits); i += 3 {
		b.WriteString(sep)
		b.WriteString(digits[i : i+3])
	}
	return b.String()
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
