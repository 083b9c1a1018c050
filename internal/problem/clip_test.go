package problem

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	short := strings.Repeat("a", EchoMax)
	if got := Clip(short); got != short {
		t.Errorf("a value of exactly %d characters was cut: %q", EchoMax, got)
	}
	// Characters, not bytes: 150 three-byte characters keep 100 of them,
	// whole, and say they were cut.
	got := Clip(strings.Repeat("速", 150))
	if want := strings.Repeat("速", EchoMax) + "…"; got != want {
		t.Errorf("Clip of 150 × 速 = %d characters, want %d and an ellipsis", utf8.RuneCountInString(got), EchoMax)
	}
	if got := Clip(strings.Repeat("x", 5000)); !strings.HasSuffix(got, "…") || utf8.RuneCountInString(got) != EchoMax+1 {
		t.Errorf("Clip of 5,000 characters = %d characters", utf8.RuneCountInString(got))
	}
}

// TestProblemsClipped: every problem made, however it is made, repeats at
// most EchoMax characters of its path and of each text value, and the
// caller's data is left as it was.
func TestProblemsClipped(t *testing.T) {
	long := strings.Repeat("k", 5000)
	data := map[string]any{"Key": long, "Max": 3}
	var l List
	l.Add("$."+long, "problem.key", data)
	errs := []*Error{New(Invalid, "$."+long, "problem.key", data), l.Err().(*Error)}
	errs = append(errs, Rebase(New(Invalid, "$.a", "problem.key", nil), "$."+long).(*Error))
	for _, e := range errs {
		p := e.Problems[0]
		if n := utf8.RuneCountInString(p.Path); n > EchoMax+1 || !strings.HasSuffix(p.Path, "…") {
			t.Errorf("path of %d characters: %.40q…", n, p.Path)
		}
		if s, _ := p.Data["Key"].(string); p.Data != nil && (len(s) > EchoMax+len("…") || p.Data["Max"] != 3) {
			t.Errorf("data %d bytes long, Max %v", len(s), p.Data["Max"])
		}
	}
	if data["Key"] != long {
		t.Error("the caller's data was changed")
	}
}
