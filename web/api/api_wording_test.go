package api_test

import (
	"os"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestRefusalWording: refusals name the place briefly and say what was
// expected, without placeholders left unfilled ("?", "keys: )") or a path
// as long as the document is deep.
func TestRefusalWording(t *testing.T) {
	s := webtest.NewSite(t)
	tests := []struct {
		file, path string
		want       []string // words the message must contain
	}{
		{"sglang_infinity_no_cap.jsonl", "$.request_rate", []string{"infinite", "--max-concurrency N"}},
		{"sglang_no_rate_no_cap.jsonl", "$.request_rate", []string{"no request rate", "--max-concurrency N"}},
		{"top_level_array.json", "$", []string{"JSON array", "first item", "a"}},
		{"top_level_number_array.json", "$", []string{"JSON array", "object"}},
		{"deep_nesting.json", "", []string{"levels", "deep"}},
	}
	for _, tt := range tests {
		body, err := os.ReadFile(webtest.Path("testdata/regress/" + tt.file))
		if err != nil {
			t.Fatal(err)
		}
		resp, out := s.Post(t, "application/json", body)
		probs, _ := out["problems"].([]any)
		if resp.StatusCode < 400 || len(probs) == 0 {
			t.Errorf("%s: %d %v", tt.file, resp.StatusCode, out)
			continue
		}
		p := probs[0].(map[string]any)
		path, _ := p["path"].(string)
		msg, _ := p["message"].(string)
		if (tt.path != "" && path != tt.path) || len(path) > 120 || len(msg) > 600 {
			t.Errorf("%s: path %.200q (%d bytes), message of %d bytes", tt.file, path, len(path), len(msg))
		}
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message %q lacks %q", tt.file, msg, w)
			}
		}
		for _, bad := range []string{"(?", ": )", "exceeded max depth"} {
			if strings.Contains(msg, bad) {
				t.Errorf("%s: message %q holds %q", tt.file, msg, bad)
			}
		}
	}
}
