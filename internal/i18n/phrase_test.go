package i18n

import (
	"testing"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
)

// TestPhrasesSayWhatGoI18nSays fills every message of every language both
// ways, through the compiled phrase and through go-i18n's text/template,
// with strings, integers and a missing key, and wants the same words.
func TestPhrasesSayWhatGoI18nSays(t *testing.T) {
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	compiled := 0
	for _, lang := range Languages {
		l := b.Localizer(lang.Tag)
		slow := goi18n.NewLocalizer(b.b, lang.Tag)
		for id, p := range b.phrases[lang.Tag] {
			compiled++
			names := map[string]any{}
			for _, part := range p.parts {
				if part.name != "" {
					names[part.name] = "«" + part.name + "»"
				}
			}
			for _, data := range []map[string]any{names, withInts(names), nil} {
				want, err := slow.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data})
				if err != nil {
					t.Fatalf("%s %s: %v", lang.Tag, id, err)
				}
				if got := l.T(id, data); got != want {
					t.Errorf("%s %s with %v: T = %q, go-i18n = %q", lang.Tag, id, data, got, want)
				}
			}
		}
		for _, m := range []string{"{{if .X}}a{{end}}", "{{ .X }}", "{{.X | printf \"%q\"}}", "{{.X"} {
			if _, ok := compilePhrase(m); ok {
				t.Errorf("compilePhrase(%q) compiled; want it left to text/template", m)
			}
		}
	}
	if compiled < 8*500 {
		t.Errorf("only %d messages compiled; the fast path is not taken", compiled)
	}
}

// withInts is data with every value an integer instead.
func withInts(data map[string]any) map[string]any {
	out := map[string]any{}
	n := 1000
	for k := range data {
		out[k] = n
		n *= 7
	}
	return out
}
