package i18n

import (
	"math"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// Numbers formats numbers in one locale's notation: grouping and decimal
// separators come from CLDR through golang.org/x/text, so 2186 is "2,186"
// in en, ja and zh and would be "2.186" in de.
type Numbers struct {
	p *message.Printer
}

// NewNumbers returns the number notation of tag.
func NewNumbers(tag language.Tag) Numbers {
	return Numbers{p: message.NewPrinter(tag)}
}

// Dec formats v with exactly decimals fraction digits, grouped. Rounding is
// to the nearest, on v's exact binary value (as strconv does).
func (n Numbers) Dec(v float64, decimals int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	if v == 0 {
		v = 0 // no "-0.0"
	}
	return n.printer().Sprint(number.Decimal(v,
		number.MinFractionDigits(decimals), number.MaxFractionDigits(decimals)))
}

// Int formats v grouped, without decimals.
func (n Numbers) Int(v int64) string {
	return n.printer().Sprint(number.Decimal(v))
}

func (n Numbers) printer() *message.Printer {
	if n.p == nil {
		return message.NewPrinter(language.English)
	}
	return n.p
}
