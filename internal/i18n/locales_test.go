package i18n

import (
	"regexp"
	"slices"
	"testing"

	"github.com/BurntSushi/toml"

	"github.com/speedmatrix/speedmatrix/locales"
)

// pluralForms are the keys that make a TOML table a message with plural
// forms rather than a namespace.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// readLocale flattens one locale file to id → message text (plural messages
// joined, so placeholders of every form are checked).
func readLocale(t *testing.T, tag string) map[string]string {
	t.Helper()
	raw, err := locales.FS.ReadFile(tag + ".toml")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := toml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s.toml: %v", tag, err)
	}
	out := map[string]string{}
	flatten(t, tag, "", m, out)
	return out
}

func flatten(t *testing.T, tag, prefix string, m map[string]any, out map[string]string) {
	for k, v := range m {
		id := k
		if prefix != "" {
			id = prefix + "." + k
		}
		switch v := v.(type) {
		case string:
			out[id] = v
		case map[string]any:
			if _, ok := v["other"]; ok {
				var all string
				for f, s := range v {
					if !slices.Contains(pluralForms, f) {
						t.Errorf("%s.toml: %s: unknown plural form %q", tag, id, f)
					}
					all += s.(string) + "\n"
				}
				out[id] = all
				continue
			}
			flatten(t, tag, id, v, out)
		default:
			t.Errorf("%s.toml: %s: unexpected %T", tag, id, v)
		}
	}
}

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

func placeholders(s string) []string {
	var names []string
	for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
		names = append(names, m[1])
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestLocalesComplete: every locale has exactly English's ids, and each
// translation uses the same placeholders, so no page shows a raw id or
// drops a number in one language.
func TestLocalesComplete(t *testing.T) {
	en := readLocale(t, English)
	for _, l := range Languages[1:] {
		other := readLocale(t, l.Tag)
		for id, s := range en {
			tr, ok := other[id]
			if !ok {
				t.Errorf("%s.toml lacks %q", l.Tag, id)
				continue
			}
			if a, b := placeholders(s), placeholders(tr); !slices.Equal(a, b) {
				t.Errorf("%s.toml %q uses %v, English uses %v", l.Tag, id, b, a)
			}
		}
		for id := range other {
			if _, ok := en[id]; !ok {
				t.Errorf("%s.toml has %q, which English lacks", l.Tag, id)
			}
		}
	}
}

// TestBundleLoads: the embedded files parse with go-i18n itself (plural
// forms valid for each language).
func TestBundleLoads(t *testing.T) {
	if _, err := NewBundle(locales.FS); err != nil {
		t.Fatal(err)
	}
}
