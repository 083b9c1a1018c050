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

func TestEntityAddresses(t *testing.T) {
	for got, want := range map[string]string{
		Hardware("rtx-3060-12gb"): "/hardware/rtx-3060-12gb",
		Engine("vllm"):            "/engines/vllm",
		Model("qwen3-8b"):         "/models/qwen3-8b",
		Submitter("sandberg"):     "/submitters/sandberg",
		// A slug stays in its segment whatever it holds.
		Model("a/b c"): "/models/a%2Fb%20c",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestRunCell(t *testing.T) {
	if got := RunCell("abc234", 32768, 8); got != "/runs/abc234?cell=32768-8#cell-32768-8" {
		t.Errorf("RunCell = %q", got)
	}
}
