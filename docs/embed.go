// Package docs holds the documents the site serves as pages, embedded in the
// binary: the mapping of other tools' fields (formats.md).
package docs

import _ "embed"

// Formats is docs/formats.md: which field of each tool becomes which number.
//
//go:embed formats.md
var Formats []byte
