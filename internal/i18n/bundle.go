// Package i18n turns message ids into the reader's language and numbers into
// the reader's notation. The locale files are parsed once into a Bundle; each
// request gets its own Localizer (never shared across requests), picked once
// in middleware and carried in the request context.
package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"sync"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"github.com/speedmatrix/speedmatrix/locales"
)

// English is the default language: the fallback for anything unknown.
const English = "en"

// Language is one language the portal speaks.
type Language struct {
	// Tag is the BCP 47 tag used in ?lang=, the cookie and <html lang>.
	Tag string
	// Name is the language's own name for itself, for the switcher.
	Name string
}

// Languages lists the supported languages in switcher order; English first.
var Languages = []Language{
	{Tag: "en", Name: "English"},
	{Tag: "ja", Name: "日本語"},
	{Tag: "zh-Hans", Name: "简体中文"},
	{Tag: "ko", Name: "한국어"},
	{Tag: "de", Name: "Deutsch"},
	{Tag: "es", Name: "Español"},
	{Tag: "fr", Name: "Français"},
	{Tag: "pt-BR", Name: "Português (Brasil)"},
}

// Bundle holds every parsed message file. It is immutable after NewBundle
// and safe to share.
type Bundle struct {
	b       *goi18n.Bundle
	numbers map[string]Numbers // of each of Languages, read once
	phrases map[string]phrases // of each of Languages, compiled once (phrase.go)
}

// NewBundle parses one "<tag>.toml" per entry of Languages from fsys.
func NewBundle(fsys fs.FS) (*Bundle, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	compiled := map[string]phrases{}
	for _, l := range Languages {
		f, err := b.LoadMessageFileFS(fsys, path.Clean(l.Tag+".toml"))
		if err != nil {
			return nil, fmt.Errorf("i18n: load %s: %w", l.Tag, err)
		}
		compiled[l.Tag] = newPhrases(f.Messages)
	}
	numbers := map[string]Numbers{}
	for _, l := range Languages {
		numbers[l.Tag] = NewNumbers(language.Make(l.Tag))
	}
	return &Bundle{b: b, numbers: numbers, phrases: compiled}, nil
}

// defaultBundle parses the embedded locales on first use, once per process.
var defaultBundle = sync.OnceValues(func() (*Bundle, error) {
	return NewBundle(locales.FS)
})

// Default returns the bundle of the embedded locale files, parsed once. The
// error can only come from a broken locale file, which the tests catch.
func Default() (*Bundle, error) { return defaultBundle() }

// Localizer returns a per-request localizer for tag, which should come from
// Pick; an unsupported tag gets English.
func (b *Bundle) Localizer(tag string) *Localizer {
	if !supported(tag) {
		tag = English
	}
	if b == nil {
		// No messages at all: ids are shown raw, numbers still work.
		return &Localizer{Numbers: NewNumbers(language.Make(tag)), lang: tag}
	}
	return newLocalizer(b, tag)
}

// supported reports whether tag is exactly one of Languages' tags.
func supported(tag string) bool {
	for _, l := range Languages {
		if l.Tag == tag {
			return true
		}
	}
	return false
}
