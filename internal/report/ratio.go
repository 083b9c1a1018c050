package report

import "github.com/speedmatrix/speedmatrix/internal/i18n"

// FormatChange is b over a as a signed whole percentage: "+12 %", "-3 %"
// (the history's change from one engine version to the next).
func FormatChange(l *i18n.Localizer, a, b float64) string {
	pct := (b/a - 1) * 100
	s := l.Dec(pct, 0)
	if pct >= 0.5 {
		s = "+" + s
	}
	return l.T("history.change", map[string]any{"V": s})
}

// FormatRatio is how the compare page writes one run's figure over
// another's: two decimals and a times sign, "1.27×".
func FormatRatio(l *i18n.Localizer, v float64) string {
	return l.T("compare.ratio_value", map[string]any{"V": l.Dec(v, 2)})
}
