package paths

import "testing"

func TestRunAddresses(t *testing.T) {
	if got := Run("abc234"); got != "/runs/abc234" {
		t.Errorf("Run = %q", got)
	}
	if got := RunFile("abc234", ".json"); got != "/runs/abc234.json" {
		t.Errorf("RunFile .json = %q", got)
	}
	if got := RunFile("abc234", "/source"); got != "/runs/abc234/source" {
		t.Errorf("RunFile /source = %q", got)
	}
	if got := RunURL("https://speedmatrix.example", "abc234"); got != "https://speedmatrix.example/runs/abc234" {
		t.Errorf("RunURL = %q", got)
	}
	// An id is always base32 here, but the builder must never let one
	// escape its path segment.
	if got := Run("a/b?c"); got != "/runs/a%2Fb%3Fc" {
		t.Errorf("Run escapes = %q", got)
	}
}
