// Package locales holds the message files of every language the portal
// speaks, one go-i18n TOML file per locale, embedded so the binary carries
// them and internal/i18n parses them once at start-up.
package locales

import "embed"

// FS holds en.toml, ja.toml and zh-Hans.toml.
//
//go:embed *.toml
var FS embed.FS
