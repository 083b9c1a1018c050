package report

import "github.com/speedmatrix/speedmatrix/internal/i18n"

// FormatRatio is how the compare page writes one run's figure over
// another's: two decimals and a times sign, "1.27×".
func FormatRatio(l *i18n.Localizer, v float64) string {
	return l.T("compare.ratio_value", map[string]any{"V": l.Dec(v, 2)})
}
