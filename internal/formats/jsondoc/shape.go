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

// CheckArrays refuses a document with an array longer than MaxArrayItems,
// naming the array: the one limit on a document's shape that the codec
// does not keep itself (it refuses a name given twice and nesting deeper
// than 10,000 levels). It counts commas without decoding, so it is cheap
// enough to run before every parser, and before the lenient readers split
// a file into its values; a document that is not JSON is left to them.
func CheckArrays(data []byte) error {
	// The open containers, innermost last: whether each is an array, and
	// its commas so far. Room for the usual nesting without growing.
	type open struct {
		start int
		array bool
		items int
	}
	stack := make([]open, 0, 16)
	for i := 0; i < len(data); i++ {
		for i < len(data) && !structural[data[i]] { // numbers, words, space
			i++
		}
		if i == len(data) {
			break
		}
		switch data[i] {
		case '"':
			if i = stringEnd(data, i+1); i == len(data) {
				return nil // cut short: the decoder's problem
			}
		case '[', '{':
			stack = append(stack, open{start: i, array: data[i] == '['})
		case ']', '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case ',':
			if n := len(stack); n > 0 && stack[n-1].array {
				if stack[n-1].items++; stack[n-1].items >= MaxArrayItems {
					// Just inside the array is its first item: the path
					// names the array itself.
					at := strings.TrimSuffix(PathAt(data, int64(stack[n-1].start)+1), "[0]")
					return problem.New(problem.TooLarge, at, "problem.array_long", map[string]any{"Max": MaxArrayItems})
				}
			}
		}
	}
	return nil
}

// structural marks the bytes CheckArrays stops at outside strings; it
// steps over the rest (numbers, literals, white space: a third of a
// pretty-printed file) by this table alone.
var structural = [256]bool{'"': true, '[': true, ']': true, '{': true, '}': true, ',': true}

// stringEnd is the offset of the quote that ends the string whose first
// byte is data[i], or len(data) when it does not end. Only a quote and a
// backslash (which takes the next byte with it) matter inside a string.
func stringEnd(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case '"':
			return i
		case '\\':
			i += 2
		default:
			i++
		}
	}
	return len(data)
}
