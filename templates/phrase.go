package templates

import (
	"context"
	"html"
	"io"
	"strings"
	"unicode"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
)

// phrased writes s with <wbr> where a Japanese or Chinese label may break
// between words. The site's CSS keeps CJK labels (table headers, headings)
// from breaking inside a run of characters (word-break: keep-all), since a
// header such as 同時リクエスト数 split as 同時リクエ|スト数 reads as
// nonsense; the hints give the browser the word boundaries back, so a
// narrow column can still wrap as 同時|リクエスト|数. Other languages
// have spaces and get s as it is.
func phrased(s string) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		lang := i18n.FromContext(ctx).Lang()
		if lang != "ja" && lang != "zh-Hans" {
			_, err := io.WriteString(w, html.EscapeString(s))
			return err
		}
		_, err := io.WriteString(w, wordBreakHints(s))
		return err
	})
}

// charClass sorts characters for wordBreakHints.
type charClass int

const (
	otherClass charClass = iota
	hanClass
	hiraganaClass
	katakanaClass
	latinClass
)

func classOf(r rune) charClass {
	switch {
	case r == 'ー' || unicode.Is(unicode.Katakana, r):
		return katakanaClass
	case unicode.Is(unicode.Hiragana, r):
		return hiraganaClass
	case unicode.Is(unicode.Han, r):
		return hanClass
	case r < 0x300 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		return latinClass
	}
	return otherClass
}

// wordBreakHints escapes s and adds <wbr> at changes of script, the word
// boundaries a Japanese or Chinese label shows without a dictionary: kanji
// to katakana (同時|リクエスト), katakana to kanji (リクエスト|数), kana to
// kanji, CJK to Latin. Kanji followed by hiragana is a word with its
// inflection (待ち) and is never split.
func wordBreakHints(s string) string {
	var b strings.Builder
	prev := otherClass
	for _, r := range s {
		c := classOf(r)
		if prev != otherClass && c != otherClass && c != prev && !(prev == hanClass && c == hiraganaClass) {
			b.WriteString("<wbr>")
		}
		b.WriteString(html.EscapeString(string(r)))
		prev = c
	}
	return b.String()
}
