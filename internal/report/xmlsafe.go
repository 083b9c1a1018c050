package report

import "strings"

// XMLSafe replaces the characters XML 1.0 cannot hold (the C0 controls
// but tab, newline and return; U+FFFE, U+FFFF) with U+FFFD. A run's text
// may carry any of them (a field with a terminal escape); an SVG holding
// one is not well-formed, and browsers then show no image at all. Pages
// (HTML) tolerate them and show the text as given.
func XMLSafe(s string) string {
	if strings.IndexFunc(s, xmlIllegal) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if xmlIllegal(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

func xmlIllegal(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xFFFE || r == 0xFFFF
}
