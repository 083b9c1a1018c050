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

// CheckShape refuses a document with an array longer than MaxArrayItems,
// naming the array. It scans bytes without decoding, so it is cheap
// enough to run before every parser. Nesting is left to the decoder's
// own depth limit (see syntaxProblem).
func CheckShape(data []byte) error {
	var counts []int // items so far of each open array; -1 for an object
	var starts []int // where each open array or object begins
	inString, escaped := false, false
	for i, b := range data {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
		case b == '"':
			inString = true
		case b == '[' || b == '{':
			counts, starts = append(counts, map[byte]int{'[': 0, '{': -1}[b]), append(starts, i)
		case (b == ']' || b == '}') && len(counts) > 0:
			counts, starts = counts[:len(counts)-1], starts[:len(starts)-1]
		case b == ',' && len(counts) > 0 && counts[len(counts)-1] >= 0:
			if counts[len(counts)-1]++; counts[len(counts)-1] >= MaxArrayItems {
				// Just inside the array is its first item: the path names
				// the array itself.
				at := strings.TrimSuffix(PathAt(data, int64(starts[len(starts)-1])+1), "[0]")
				return problem.New(problem.TooLarge, at, "problem.array_long",
					map[string]any{"Max": MaxArrayItems})
			}
		}
	}
	return nil
}
