package i18n

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/BurntSushi/toml"

	"github.com/speedmatrix/speedmatrix/locales"
)

// identical reads locales/identical.toml: per language (and "all"), the
// ids whose translation is English's on purpose.
func identical(t *testing.T) map[string][]string {
	t.Helper()
	raw, err := locales.FS.ReadFile("identical.toml")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string][]string
	if err := toml.Unmarshal(raw, &m); err != nil {
		t.Fatalf("identical.toml: %v", err)
	}
	return m
}

// TestLocalesTranslated: no translation equals English unless
// identical.toml lists it, and nothing is listed that is not identical (a
// stale entry would hide the next untranslated line).
func TestLocalesTranslated(t *testing.T) {
	en := readLocale(t, English)
	same := identical(t)
	for k := range same {
		if k != "all" && !supported(k) {
			t.Errorf("identical.toml lists %q, which is not a language", k)
		}
	}
	for _, l := range Languages[1:] {
		other := readLocale(t, l.Tag)
		allowed := append(slices.Clone(same["all"]), same[l.Tag]...)
		for id, s := range en {
			listed := slices.Contains(allowed, id)
			switch tr, ok := other[id]; {
			case !ok:
				// TestLocalesComplete reports it.
			case tr == s && !listed:
				t.Errorf("%s.toml %q is the English text %q: translate it, or list it in identical.toml", l.Tag, id, s)
			case tr != s && listed:
				t.Errorf("identical.toml lists %q for %s, but %s.toml translates it", id, l.Tag, l.Tag)
			}
		}
		for _, id := range allowed {
			if _, ok := en[id]; !ok {
				t.Errorf("identical.toml lists %q, which English lacks", id)
			}
		}
	}
}

// TestLocalesKeepEnglishOrder: every locale lists its ids in en.toml's
// order, so blocks appended at the end of each file merge cleanly and the
// missing-keys tool's output lands where it belongs.
func TestLocalesKeepEnglishOrder(t *testing.T) {
	en, err := ReadMessages(locales.FS, English)
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{}
	for i, m := range en {
		pos[m.ID] = i
	}
	for _, l := range Languages[1:] {
		msgs, err := ReadMessages(locales.FS, l.Tag)
		if err != nil {
			t.Fatal(err)
		}
		last := -1
		for _, m := range msgs {
			p, ok := pos[m.ID]
			if !ok {
				continue // TestLocalesComplete reports it
			}
			if p < last {
				t.Errorf("%s.toml: %q comes after %q; keep en.toml's order", l.Tag, m.ID, en[last].ID)
				break
			}
			last = p
		}
	}
}

// TestGaps: the missing-keys tool's core finds what a locale lacks, in
// English's order, and writes lines the locale files can take as they are.
func TestGaps(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, l := range Languages {
		fsys[l.Tag+".toml"] = &fstest.MapFile{Data: []byte("\"a\" = \"x\"\n")}
	}
	fsys["en.toml"] = &fstest.MapFile{Data: []byte("\"a\" = \"A\"\n\"z\" = \"Say \\\"hi\\\"\\n\"\n" +
		"\"b\" = { one = \"{{.Count}} run\", other = \"{{.Count}} runs\" }\n")}
	fsys["ko.toml"] = &fstest.MapFile{Data: []byte("\"a\" = \"x\"\n\"b\" = { other = \"{{.Count}}\" }\n")}
	gaps, err := Gaps(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(gaps) != len(Languages)-1 {
		t.Fatalf("%d gaps", len(gaps))
	}
	var got []string
	for _, g := range gaps {
		var ids []string
		for _, m := range g.Missing {
			ids = append(ids, m.ID)
		}
		got = append(got, g.Tag+":"+strings.Join(ids, ","))
	}
	if got[0] != "ja:z,b" || got[2] != "ko:z" {
		t.Errorf("gaps = %v", got)
	}
	lines := []string{gaps[0].Missing[0].TOML(), gaps[0].Missing[1].TOML()}
	want := []string{`"z" = "Say \"hi\"\n"`, `"b" = { one = "{{.Count}} run", other = "{{.Count}} runs" }`}
	if !slices.Equal(lines, want) {
		t.Errorf("TOML lines = %q, want %q", lines, want)
	}
	var back map[string]any
	if err := toml.Unmarshal([]byte(strings.Join(lines, "\n")), &back); err != nil || back["z"] != "Say \"hi\"\n" {
		t.Errorf("the lines do not read back: %v %v", back, err)
	}
}
