package jsondoc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// keys is an object of n keys k0…k(n-1), then the extra ones.
func keys(n int, extra ...string) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf(`"k%d": %d`, i, i))
	}
	for _, k := range extra {
		parts = append(parts, fmt.Sprintf(`"%s": {"k0": 1, "k1": [1, {"k0": 2}]}`, k))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func TestCheckShapeDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		// path is the refused key's object; "" means accepted.
		name, doc, path string
	}{
		{"few keys", keys(3), ""},
		{"few keys, one twice", keys(3, "k1"), "$"},
		{"many keys", keys(100), ""},
		{"many keys, one twice", keys(100, "k57"), "$"},
		{"the key past the few, twice", keys(fewKeys, "k0"), "$"},
		// Nested objects have keys of their own: k0 in each is no repeat.
		{"nested objects", keys(20, "a", "b"), ""},
		{"a nested object's key twice", `{"a": {"x": 1, "y": {"x": 2}, "x": 3}}`, "$.a"},
		{"keys after a nested object", `{"a": {"b": 1}, "b": 2, "c": {"b": 3}, "d": 4}`, ""},
		{"keys after an array", `{"a": [1, {"b": 2}], "b": 3, "c": [4]}`, ""},
		{"a key after an array, twice", `{"a": [1, {"b": 2}], "b": 3, "c": [4], "a": 5}`, "$"},
		{"a key after a nested object, twice", `{"a": {"b": 1}, "b": 2, "c": {"b": 3}, "b": 4}`, "$"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckShape([]byte(tc.doc))
			if tc.path == "" {
				if err != nil {
					t.Fatalf("CheckShape = %v, want nil", err)
				}
				return
			}
			pe, ok := problem.As(err)
			if !ok || len(pe.Problems) != 1 || pe.Problems[0].Key != "problem.duplicate_key" {
				t.Fatalf("CheckShape = %v, want one problem.duplicate_key", err)
			}
			if got := pe.Problems[0].Path; got != tc.path {
				t.Errorf("path = %q, want %q", got, tc.path)
			}
		})
	}
}
