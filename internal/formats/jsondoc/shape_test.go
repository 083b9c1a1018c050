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

// TestDuplicateKeys: a name given twice in one object, however deep and
// however escaped, is refused naming the name and its object; the same
// name in objects of their own is no repeat.
func TestDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		// path is the refused key's object, key the key; "" means accepted.
		name, doc, path, key string
	}{
		{"few keys", keys(3), "", ""},
		{"few keys, one twice", keys(3, "k1"), "$", "k1"},
		{"many keys", keys(100), "", ""},
		{"many keys, one twice", keys(100, "k57"), "$", "k57"},
		{"a key written two ways", `{"k\u0031": 1, "k1": 2}`, "$", "k1"},
		// Nested objects have keys of their own: k0 in each is no repeat.
		{"nested objects", keys(20, "a", "b"), "", ""},
		{"a nested object's key twice", `{"a": {"x": 1, "y": {"x": 2}, "x": 3}}`, "$.a", "x"},
		{"keys after a nested object", `{"a": {"b": 1}, "b": 2, "c": {"b": 3}, "d": 4}`, "", ""},
		{"keys after an array", `{"a": [1, {"b": 2}], "b": 3, "c": [4]}`, "", ""},
		{"a key after an array, twice", `{"a": [1, {"b": 2}], "b": 3, "c": [4], "a": 5}`, "$", "a"},
		{"a key after a nested object, twice", `{"a": {"b": 1}, "b": 2, "c": {"b": 3}, "b": 4}`, "$", "b"},
		{"in an array's object", `{"results": [{"x": 1}, {"x": 1, "x": 2}]}`, "$.results[1]", "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			err := Decode([]byte(tc.doc), &v)
			if tc.path == "" {
				if err != nil {
					t.Fatalf("Decode = %v, want nil", err)
				}
				return
			}
			pe, ok := problem.As(err)
			if !ok || len(pe.Problems) != 1 || pe.Problems[0].Key != "problem.duplicate_key" {
				t.Fatalf("Decode = %v, want one problem.duplicate_key", err)
			}
			if p := pe.Problems[0]; p.Path != tc.path || p.Data["Key"] != tc.key {
				t.Errorf("key %v at %q, want %q at %q", p.Data["Key"], p.Path, tc.key, tc.path)
			}
		})
	}
}

// TestCheckArrays: an array of MaxArrayItems items passes and one more is
// refused naming the array, however deep; commas of objects and strings
// are no items.
func TestCheckArrays(t *testing.T) {
	items := func(n int) string { return "[" + strings.Repeat("1,", n-1) + "1]" }
	for _, tc := range []struct {
		name, doc, path string // path is the refused array's; "" means accepted
	}{
		{"at the limit", items(MaxArrayItems), ""},
		{"one past", items(MaxArrayItems + 1), "$"},
		{"nested", `{"a": [0, {"b": ` + items(MaxArrayItems+1) + `}]}`, "$.a[1].b"},
		{"commas of an object", `{"a": [{` + strings.Repeat(`"k": 1,`, MaxArrayItems) + `"k": 1}]}`, ""},
		{"commas of a string", `["` + strings.Repeat(",", 2*MaxArrayItems) + `", "\"", "\\"]`, ""},
		{"cut short", `["` + strings.Repeat(",", 2*MaxArrayItems), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckArrays([]byte(tc.doc))
			if tc.path == "" {
				if err != nil {
					t.Fatalf("CheckArrays = %v, want nil", err)
				}
				return
			}
			pe, ok := problem.As(err)
			if !ok || pe.Kind != problem.TooLarge || pe.Problems[0].Key != "problem.array_long" || pe.Problems[0].Path != tc.path {
				t.Fatalf("CheckArrays = %v, want problem.array_long at %s", err, tc.path)
			}
		})
	}
}
