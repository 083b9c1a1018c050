package jsondoc

import (
	"bytes"
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
	start     int  // offset of its '[' or '{'
	items     int  // commas seen so far (arrays)
	object    bool // an object, whose keys are checked
	expectKey bool // the next string is a key
	keysFrom  int  // where its keys begin in shape.keys
	// many holds its keys once they are more than fewKeys, for objects
	// with many keys (a hostile one with thousands); nil until then.
	many map[string]bool
	// seen has the keyBit of each of its keys: a key whose bit is clear
	// is not among them, and is not compared with each (a cell of an
	// llm-inference-bench file has 21 keys, 210 comparisons).
	seen uint64
}

// fewKeys is how many keys of one object are compared one by one before
// they go into a map: most objects have a handful, and a cell of an
// llm-inference-bench file 21, which at 16 cost a map (and a string per
// key) per cell: 450 allocations and a tenth of BenchmarkPrepareSeed.
const fewKeys = 32

// shape is CheckShape's state: the open containers and the keys of the
// open objects, as spans of data, innermost last; both reused as the scan
// goes, so a document costs no allocation per object.
type shape struct {
	data []byte
	open []container
	keys [][2]int
}

// CheckShape refuses a document with an array longer than MaxArrayItems,
// naming the array, or an object that holds one key twice (decoders keep
// one of the values silently). It scans bytes without decoding, so it is
// cheap enough to run before every parser. Nesting is left to the
// decoder's own depth limit (see syntaxProblem). Keys are compared as
// written: "a" and "\u0061" are not told apart.
func CheckShape(data []byte) error {
	// Room for the usual nesting and keys without growing: an upload's
	// document is checked at every upload.
	sh := shape{data: data, open: make([]container, 0, 16), keys: make([][2]int, 0, 64)}
	for i := 0; i < len(data); i++ {
		for i < len(data) && !structural[data[i]] { // numbers, words, space
			i++
		}
		if i == len(data) {
			break
		}
		switch data[i] {
		case '"':
			end := stringEnd(data, i+1)
			if end == len(data) { // cut short: the decoder's problem
				return nil
			}
			if top := sh.top(); top != nil && top.expectKey {
				if err := sh.addKey(top, i+1, end); err != nil {
					return err
				}
			}
			i = end
		case '[':
			sh.open = append(sh.open, container{start: i, keysFrom: len(sh.keys)})
		case '{':
			sh.open = append(sh.open, container{start: i, object: true, expectKey: true, keysFrom: len(sh.keys)})
		case ']', '}':
			if top := sh.top(); top != nil {
				sh.keys = sh.keys[:top.keysFrom]
				sh.open = sh.open[:len(sh.open)-1]
			}
		case ',':
			top := sh.top()
			switch {
			case top == nil:
			case top.object:
				top.expectKey = true
			default:
				if top.items++; top.items >= MaxArrayItems {
					// Just inside the array is its first item: the path
					// names the array itself.
					at := strings.TrimSuffix(PathAt(data, int64(top.start)+1), "[0]")
					return problem.New(problem.TooLarge, at, "problem.array_long", map[string]any{"Max": MaxArrayItems})
				}
			}
		}
	}
	return nil
}

// structural marks the bytes CheckShape's scan stops at outside strings;
// it steps over the rest (numbers, literals, white space: a third of a
// pretty-printed file) by this table alone.
var structural = [256]bool{'"': true, '[': true, ']': true, '{': true, '}': true, ',': true}

// keyBit is one of 64 bits for key, from its length and three of its
// bytes (container.seen).
func keyBit(key []byte) uint64 {
	h := uint(len(key))
	if len(key) > 0 {
		h = (h*31+uint(key[0]))*31 + uint(key[len(key)-1])
		h = h*31 + uint(key[len(key)/2])
	}
	return 1 << (h % 64)
}

// top is the innermost open container, nil outside all.
func (sh *shape) top() *container {
	if len(sh.open) == 0 {
		return nil
	}
	return &sh.open[len(sh.open)-1]
}

// stringEnd is the offset of the quote that ends the string whose first
// byte is data[i], or len(data) when it does not end. Only a quote and a
// backslash (which takes the next byte with it) matter inside a string,
// so it steps over the rest without the scan's other cases.
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

// addKey records the key data[from:end] of object c, refusing it when c
// holds it already.
func (sh *shape) addKey(c *container, from, end int) error {
	c.expectKey = false
	key := sh.data[from:end]
	dup := false
	if c.many != nil {
		dup = c.many[string(key)]
		c.many[string(key)] = true
	} else {
		if bit := keyBit(key); c.seen&bit == 0 {
			c.seen |= bit
		} else {
			for _, k := range sh.keys[c.keysFrom:] {
				if bytes.Equal(sh.data[k[0]:k[1]], key) {
					dup = true
					break
				}
			}
		}
		sh.keys = append(sh.keys, [2]int{from, end})
		if len(sh.keys)-c.keysFrom > fewKeys {
			c.many = make(map[string]bool, 2*fewKeys)
			for _, k := range sh.keys[c.keysFrom:] {
				c.many[string(sh.data[k[0]:k[1]])] = true
			}
		}
	}
	if dup {
		return problem.New(problem.Invalid, PathAt(sh.data, int64(end)), "problem.duplicate_key", map[string]any{"Key": string(key)})
	}
	return nil
}
