package api_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestAPIProblemsInEveryLanguage: an API refusal is worded in the language
// Accept-Language asks for, fallbacks included (pt → pt-BR; zh-TW, which
// has no Traditional locale yet, → English), and says which it chose.
func TestAPIProblemsInEveryLanguage(t *testing.T) {
	s := webtest.NewSite(t)
	cases := []struct{ accept, lang, word string }{
		{"en", "en", "syntax error"},
		{"ja", "ja", "構文エラー"},
		{"ko-KR,ko;q=0.9", "ko", "구문 오류"},
		{"de-CH", "de", "Syntaxfehler"},
		{"es-MX", "es", "Error de sintaxis"},
		{"fr-CA,fr;q=0.8", "fr", "Erreur de syntaxe"},
		{"pt", "pt-BR", "Erro de sintaxe"},
		{"zh-SG", "zh-Hans", "语法错误"},
		{"zh-TW", "en", "syntax error"},
	}
	for _, c := range cases {
		resp, out := s.Post(t, "application/json", []byte("hello"), "Accept-Language: "+c.accept)
		if resp.StatusCode != 400 {
			t.Errorf("%s: status %d", c.accept, resp.StatusCode)
		}
		if got := resp.Header.Get("Content-Language"); got != c.lang {
			t.Errorf("%s: Content-Language %q, want %q", c.accept, got, c.lang)
		}
		probs, _ := out["problems"].([]any)
		if len(probs) == 0 {
			t.Errorf("%s: no problems in %v", c.accept, out)
			continue
		}
		msg, _ := probs[0].(map[string]any)["message"].(string)
		if !strings.Contains(msg, c.word) {
			t.Errorf("%s: problem %q lacks %q", c.accept, msg, c.word)
		}
	}
}
