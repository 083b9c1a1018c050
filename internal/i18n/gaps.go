package i18n

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Message is one entry of a locale file: a plain text, or plural forms.
type Message struct {
	ID string
	// Text is the message of a plain entry; Forms the "one", "other", …
	// texts of a plural one (Text is then empty).
	Text  string
	Forms map[string]string
}

// PluralForms are the CLDR plural categories in the order files write them.
var PluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// ReadMessages reads tag's locale file from fsys in file order, which is
// the order English sets and every other locale keeps.
func ReadMessages(fsys fs.FS, tag string) ([]Message, error) {
	raw, err := fs.ReadFile(fsys, tag+".toml")
	if err != nil {
		return nil, err
	}
	var m map[string]any
	md, err := toml.Decode(string(raw), &m)
	if err != nil {
		return nil, fmt.Errorf("%s.toml: %w", tag, err)
	}
	var out []Message
	for _, k := range md.Keys() {
		if len(k) != 1 {
			continue // a plural form, read with its message
		}
		switch v := m[k[0]].(type) {
		case string:
			out = append(out, Message{ID: k[0], Text: v})
		case map[string]any:
			forms := map[string]string{}
			for f, s := range v {
				str, ok := s.(string)
				if !ok || !slices.Contains(PluralForms, f) {
					return nil, fmt.Errorf("%s.toml: %s: bad plural form %q", tag, k[0], f)
				}
				forms[f] = str
			}
			out = append(out, Message{ID: k[0], Forms: forms})
		default:
			return nil, fmt.Errorf("%s.toml: %s: unexpected %T", tag, k[0], v)
		}
	}
	return out, nil
}

// Gap is what one locale lacks of English: English's messages, in English's
// order, ready to be translated.
type Gap struct {
	Tag     string
	Missing []Message
}

// Gaps compares every language's file in fsys with English's.
func Gaps(fsys fs.FS) ([]Gap, error) {
	en, err := ReadMessages(fsys, English)
	if err != nil {
		return nil, err
	}
	var out []Gap
	for _, l := range Languages[1:] {
		msgs, err := ReadMessages(fsys, l.Tag)
		if err != nil {
			return nil, err
		}
		have := map[string]bool{}
		for _, m := range msgs {
			have[m.ID] = true
		}
		g := Gap{Tag: l.Tag}
		for _, m := range en {
			if !have[m.ID] {
				g.Missing = append(g.Missing, m)
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// TOML writes m as one line of a locale file.
func (m Message) TOML() string {
	if m.Forms == nil {
		return tomlString(m.ID) + " = " + tomlString(m.Text)
	}
	var parts []string
	for _, f := range PluralForms {
		if s, ok := m.Forms[f]; ok {
			parts = append(parts, f+" = "+tomlString(s))
		}
	}
	return tomlString(m.ID) + " = { " + strings.Join(parts, ", ") + " }"
}

// tomlString quotes s as a TOML basic string: only quotes, backslashes and
// control characters are escaped, so the text stays readable to translate.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
