// Package docs holds the documents the site serves as pages, embedded in the
// binary: the mapping of other tools' fields (formats.md).
package docs

import _ "embed"

// Formats is docs/formats.md: which field of each tool becomes which number.
//
//go:embed formats.md
var Formats []byte

// Calculator is how the decode calculator works, by language tag
// (docs/calculator.<tag>.md).
var Calculator = map[string][]byte{"en": calculatorEN, "ja": calculatorJA, "zh-Hans": calculatorZH}

var (
	//go:embed calculator.en.md
	calculatorEN []byte
	//go:embed calculator.ja.md
	calculatorJA []byte
	//go:embed calculator.zh-Hans.md
	calculatorZH []byte
)
