package i18n

import (
	"testing"
	"time"

	"golang.org/x/text/language"
)

func TestAgo(t *testing.T) {
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	cases := []struct {
		lang string
		t    time.Time
		want string
	}{
		{"en", now.Add(-time.Hour), "today"},
		{"en", now.Add(time.Hour), "today"}, // clock skew
		{"en", time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC), "yesterday"},
		{"en", now.AddDate(0, 0, -3), "3 days ago"},
		{"de", now.AddDate(0, 0, -3), "vor 3 Tagen"},
		{"fr", now.AddDate(0, 0, -3), "il y a 3 jours"},
		{"es", now.AddDate(0, 0, -2), "hace 2 días"},
		{"pt-BR", now.AddDate(0, 0, -2), "há 2 dias"},
		{"ko", now.AddDate(0, 0, -5), "5일 전"},
		{"ja", now.AddDate(0, 0, -5), "5 日前"},
		{"zh-Hans", now.AddDate(0, 0, -1), "昨天"},
		{"en", time.Date(2025, 3, 14, 23, 0, 0, 0, time.UTC), "Mar 14, 2025"},
		{"de", time.Date(2025, 3, 14, 23, 0, 0, 0, time.UTC), "14.03.2025"},
		{"fr", time.Date(2025, 3, 14, 23, 0, 0, 0, time.UTC), "14/03/2025"},
		{"ja", time.Date(2025, 3, 14, 23, 0, 0, 0, time.UTC), "2025年3月14日"},
		{"ko", time.Date(2025, 3, 14, 23, 0, 0, 0, time.UTC), "2025. 3. 14."},
	}
	for _, c := range cases {
		l := b.Localizer(c.lang)
		if got := l.Ago(c.t, now); got != c.want {
			t.Errorf("%s: Ago(%v) = %q, want %q", c.lang, c.t, got, c.want)
		}
		if m := l.Missing(); len(m) > 0 {
			t.Errorf("%s: missing %v", c.lang, m)
		}
	}
}

// TestNumbersEveryLocale: each language's grouping and decimal marks, as
// CLDR has them (French groups with a no-break space).
func TestNumbersEveryLocale(t *testing.T) {
	want := map[string]string{
		"en": "12,345.5", "ja": "12,345.5", "zh-Hans": "12,345.5", "ko": "12,345.5",
		"de": "12.345,5", "es": "12.345,5", "pt-BR": "12.345,5", "fr": "12\u00a0345,5",
	}
	for _, l := range Languages {
		if got := NewNumbers(language.Make(l.Tag)).Dec(12345.5, 1); got != want[l.Tag] {
			t.Errorf("%s: %q, want %q", l.Tag, got, want[l.Tag])
		}
	}
}
