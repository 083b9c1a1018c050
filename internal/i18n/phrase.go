package i18n

import (
	"strconv"
	"strings"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

// phrase is a message compiled for T's fast path: literal text and
// {{.Name}} placeholders, nothing else of text/template. A report page
// fills a few hundred messages; through go-i18n each one matches the
// language tag again and runs text/template on a map by reflection, which
// is most of what a page miss costs in messages. Anything a phrase cannot
// say exactly as text/template would (other actions, a value that is not
// a string or an integer, a missing key) goes the slow way.
type phrase struct {
	parts []phrasePart
	size  int // the literal bytes, to size the result
}

// phrasePart is literal text, or with name set the value of that key.
type phrasePart struct {
	text, name string
}

// phrases are one language's messages that compile (see compilePhrase),
// by id, from its own file only: a message missing in a language takes
// go-i18n's path, which falls back to English and reports it missing.
type phrases map[string]*phrase

// newPhrases compiles the "other" form of each message of a file, the
// form T uses; messages with their own delimiters are left to go-i18n.
func newPhrases(msgs []*goi18n.Message) phrases {
	ps := phrases{}
	for _, m := range msgs {
		if m.Other == "" || m.LeftDelim != "" || m.RightDelim != "" {
			continue
		}
		if p, ok := compilePhrase(m.Other); ok {
			ps[m.ID] = p
		}
	}
	return ps
}

// compilePhrase splits src into literals and {{.Name}} placeholders; ok
// is false when src holds any other action.
func compilePhrase(src string) (*phrase, bool) {
	p := &phrase{}
	for src != "" {
		i := strings.Index(src, "{{")
		if i < 0 {
			p.add(phrasePart{text: src})
			break
		}
		if i > 0 {
			p.add(phrasePart{text: src[:i]})
		}
		rest := src[i+2:]
		j := strings.Index(rest, "}}")
		if j < 0 {
			return nil, false
		}
		name, ok := strings.CutPrefix(rest[:j], ".")
		if !ok || !isIdent(name) {
			return nil, false
		}
		p.parts = append(p.parts, phrasePart{name: name})
		src = rest[j+2:]
	}
	return p, true
}

func (p *phrase) add(part phrasePart) {
	p.parts = append(p.parts, part)
	p.size += len(part.text)
}

// isIdent reports whether s is a Go identifier made of ASCII letters,
// digits and underscores, as a map key in a template action is written.
func isIdent(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// fill writes the phrase with data; ok is false when a placeholder has no
// value in data or one that is not a string or an integer, which only
// text/template words exactly ("<no value>", fmt's notations).
func (p *phrase) fill(data map[string]any) (string, bool) {
	if len(p.parts) == 1 && p.parts[0].name == "" {
		return p.parts[0].text, true
	}
	var b strings.Builder
	b.Grow(p.size + 16*len(p.parts))
	for _, part := range p.parts {
		if part.name == "" {
			b.WriteString(part.text)
			continue
		}
		switch v := data[part.name].(type) {
		case string:
			b.WriteString(v)
		case int:
			b.WriteString(strconv.Itoa(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		default:
			return "", false
		}
	}
	return b.String(), true
}
