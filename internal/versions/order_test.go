package versions

import (
	"slices"
	"testing"
)

func TestCompareOrdersVersions(t *testing.T) {
	got := []string{"0.32.0", "0.10.1", "0.9.2", "0.11.0", "0.11.0rc1", "v0.12.0", "0.4.10", "0.5.2"}
	slices.SortFunc(got, Compare)
	want := []string{"0.4.10", "0.5.2", "0.9.2", "0.10.1", "0.11.0rc1", "0.11.0", "v0.12.0", "0.32.0"}
	if !slices.Equal(got, want) {
		t.Errorf("sorted %v, want %v", got, want)
	}
	builds := []string{"b6890", "b6123", "b10002", "b6502"}
	slices.SortFunc(builds, Compare)
	if !slices.Equal(builds, []string{"b6123", "b6502", "b6890", "b10002"}) {
		t.Errorf("llama.cpp builds sorted %v", builds)
	}
	if Compare("nightly", "nightly") != 0 || Compare("abc", "abd") != -1 {
		t.Error("versions without numbers compare as text")
	}
}
