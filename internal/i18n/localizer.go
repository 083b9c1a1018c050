package i18n

import (
	"maps"
	"sync"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Localizer words messages and numbers in one language for one request.
type Localizer struct {
	Numbers
	lang string
	// loc is made on first use: a page served from the cache needs only
	// the language's tag, and making one parses tags each time.
	bundle  *goi18n.Bundle
	phrases phrases // the language's compiled messages, shared (phrase.go)
	locOnce sync.Once
	loc     *goi18n.Localizer

	mu      sync.Mutex
	missing []string
	// plain memoises messages without data: a report page asks for the
	// same status and phase labels dozens of times.
	plain map[string]string
}

func newLocalizer(b *Bundle, tag string) *Localizer {
	n, ok := b.numbers[tag]
	if !ok {
		n = NewNumbers(language.Make(tag))
	}
	return &Localizer{Numbers: n, lang: tag, bundle: b.b, phrases: b.phrases[tag]}
}

// Lang returns the localizer's tag, as used in <html lang>.
func (l *Localizer) Lang() string { return l.lang }

// T returns the message id in the localizer's language, filled with data.
// A missing id is returned as is (and recorded, see Missing): a page with
// one raw id beats a 500.
func (l *Localizer) T(id string, data map[string]any) string {
	if l != nil {
		if p := l.phrases[id]; p != nil {
			if s, ok := p.fill(data); ok {
				return s
			}
		}
	}
	if data != nil || l == nil {
		return l.localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: copyData(data)})
	}
	l.mu.Lock()
	s, ok := l.plain[id]
	l.mu.Unlock()
	if ok {
		return s
	}
	s = l.localize(&goi18n.LocalizeConfig{MessageID: id})
	l.mu.Lock()
	if l.plain == nil {
		l.plain = make(map[string]string)
	}
	l.plain[id] = s
	l.mu.Unlock()
	return s
}

// N is T for a message with plural forms chosen by count. The data gets
// "Count", the count formatted for the locale, unless it has one already.
func (l *Localizer) N(id string, count int, data map[string]any) string {
	d := make(map[string]any, len(data)+1)
	maps.Copy(d, data)
	if _, ok := d["Count"]; !ok {
		d["Count"] = l.Int(int64(count))
	}
	return l.localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: d, PluralCount: count})
}

// copyData is data in a map of its own for go-i18n, which keeps what it
// is given out of the compiler's sight: handing it the caller's map made
// every map literal passed to T a heap allocation, though most are only
// read by a phrase and dropped (a report page passes a few hundred).
func copyData(data map[string]any) map[string]any {
	if data == nil {
		return nil
	}
	d := make(map[string]any, len(data))
	for k, v := range data {
		d[k] = v
	}
	return d
}

func (l *Localizer) localize(c *goi18n.LocalizeConfig) string {
	if l == nil || l.bundle == nil {
		return c.MessageID
	}
	l.locOnce.Do(func() { l.loc = goi18n.NewLocalizer(l.bundle, l.lang) })
	s, err := l.loc.Localize(c)
	if err != nil {
		// The message may be missing only in this language (s holds the
		// English fallback) or everywhere (s is empty).
		l.mu.Lock()
		l.missing = append(l.missing, c.MessageID)
		l.mu.Unlock()
		if s == "" {
			return c.MessageID
		}
	}
	return s
}

// Missing returns the ids this localizer could not find in its language, in
// the order asked. Production ignores it; tests fail when it is not empty.
func (l *Localizer) Missing() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.missing...)
}
