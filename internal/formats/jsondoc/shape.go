package jsondoc

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// MaxArrayItems bounds one JSON array. Result files' longest lists are
// per-request samples (vLLM --save-detailed: one per prompt), thousands
// long; decoding a million-item array into typed records would allocate
// hundreds of times the file's size before any check could refuse it.
const MaxArrayItems = 200_000

// container is one open array or object during CheckShape's scan.
type container struct {
	start     int             // offset of its '[' or '{'
	items     int             // commas seen so far (arrays)
	keys      map[string]bool // keys seen so far; nil for an array
	expectKey bool            // the next string is a key
}

// CheckShape refuses a document with an array longer than MaxArrayItems,
// naming the array, or an object that holds one key twice (decoders keep
// one of the values silently). It scans bytes without decoding, so it is
// cheap enough to run before every parser. Nesting is left to the
// decoder's own depth limit (see syntaxProblem). Keys are compared as
// written: "a" and "\u0061" are not told apart.
func CheckShape(data []byte) error {
	var open []*container
	inString, escaped, strStart := false, false, 0
	for i, b := range data {
		var top *container
		if len(open) > 0 {
			top = open[len(open)-1]
		}
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
				if top != nil && top.expectKey {
					if err := top.addKey(data, string(data[strStart+1:i]), i); err != nil {
						return err
					}
				}
			}
		case b == '"':
			inString, strStart = true, i
		case b == '[':
			open = append(open, &container{start: i})
		case b == '{':
			open = append(open, &container{start: i, keys: map[string]bool{}, expectKey: true})
		case (b == ']' || b == '}') && top != nil:
			open = open[:len(open)-1]
		case b == ',' && top != nil && top.keys != nil:
			top.expectKey = true
		case b == ',' && top != nil:
			if top.items++; top.items >= MaxArrayItems {
				// Just inside the array is its first item: the path names
				// the array itself.
				at := strings.TrimSuffix(PathAt(data, int64(top.start)+1), "[0]")
				return problem.New(problem.TooLarge, at, "problem.array_long", map[string]any{"Max": MaxArrayItems})
			}
		}
	}
	return nil
}

// addKey records key, ending at offset end, in an object being scanned.
func (c *container) addKey(data []byte, key string, end int) error {
	c.expectKey = false
	if c.keys[key] {
		return problem.New(problem.Invalid, PathAt(data, int64(end)), "problem.duplicate_key", map[string]any{"Key": key})
	}
	c.keys[key] = true
	return nil
}
