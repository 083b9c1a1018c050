package sweep

import (
	"os"
	"strings"
	"testing"
)

// Every caveat code has its words in every language, or the report page
// would show a raw id.
func TestNotesHaveWords(t *testing.T) {
	for _, lang := range []string{"en", "ja", "zh-Hans"} {
		b, err := os.ReadFile("../../../locales/" + lang + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		for _, code := range Notes {
			if !strings.Contains(string(b), `"formats.note.`+code+`" = `) {
				t.Errorf("%s lacks formats.note.%s", lang, code)
			}
		}
	}
}
