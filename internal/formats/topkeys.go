package formats

import (
	"bytes"
	"encoding/json"
)

// topObject is the top level of a document as topKeys finds it: each key
// as written (escapes and all) with its value's bytes, in document order.
type topObject []topKey

type topKey struct {
	name  []byte // between the quotes, undecoded
	value []byte // the raw value, as json.RawMessage would hold it
}

// get is the raw value of key name, nil when the object has none; of a
// key written twice, the last (as a decode into a map keeps it).
func (o topObject) get(name string) []byte {
	for i := len(o) - 1; i >= 0; i-- {
		if keyIs(o[i].name, name) {
			return o[i].value
		}
	}
	return nil
}

// keyIs reports whether the key written as raw is name once its escapes
// are decoded.
func keyIs(raw []byte, name string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == name
	}
	var k string
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	return json.Unmarshal(quoted, &k) == nil && k == name
}

// maxDepth is encoding/json's nesting limit, beyond which it refuses a
// document.
const maxDepth = 10000

// topKeys scans data for the keys of its top-level object and their
// values without decoding anything. ok is whether json.Unmarshal would
// read data into a map[string]json.RawMessage: data is one valid JSON
// value (whitespace around it aside), and that value is an object or null
// (which has no keys). So the scan checks the syntax of every value it
// steps over, strictly, as encoding/json does, nesting limit included
// (TestTopKeysAgreeWithDecode); it allocates only the list of keys.
func topKeys(data []byte) (top topObject, ok bool) {
	s := scanner{d: data}
	s.space()
	switch {
	case s.literal("null"):
	case s.i < len(s.d) && s.d[s.i] == '{':
		s.i++
		if top, ok = s.members(); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	if s.space(); s.i != len(s.d) {
		return nil, false
	}
	return top, true
}

// scanner checks JSON syntax from d[i] on.
type scanner struct {
	d []byte
	i int
}

// members reads the members of the top-level object, just past its '{',
// through its '}'.
func (s *scanner) members() (topObject, bool) {
	top := make(topObject, 0, 16)
	s.space()
	if s.i < len(s.d) && s.d[s.i] == '}' {
		s.i++
		return top, true
	}
	for {
		from := s.i + 1
		if !s.key() {
			return nil, false
		}
		name := s.d[from : s.i-1]
		s.space()
		s.i++ // the colon key checked
		s.space()
		at := s.i
		if !s.value(1) {
			return nil, false
		}
		top = append(top, topKey{name: name, value: s.d[at:s.i]})
		s.space()
		if s.i >= len(s.d) {
			return nil, false
		}
		switch s.d[s.i] {
		case ',':
			s.i++
			s.space()
		case '}':
			s.i++
			return top, true
		default:
			return nil, false
		}
	}
}

// value moves past one value at s.i, depth containers deep, checking its
// syntax. Containers are followed on a stack of their opening bytes, not
// by recursion: the nesting limit is deep.
func (s *scanner) value(depth int) bool {
	var buf [64]byte
	open := buf[:0]
	for {
		s.space()
		if s.i >= len(s.d) {
			return false
		}
		switch c := s.d[s.i]; c {
		case '{', '[':
			if depth+len(open)+1 > maxDepth {
				return false
			}
			s.i++
			s.space()
			if s.i < len(s.d) && s.d[s.i] == c+2 { // '{'+2 is '}', '['+2 is ']'
				s.i++
				break
			}
			open = append(open, c)
			if c == '{' && !s.colonAfterKey() {
				return false
			}
			continue
		case '"':
			if !s.str() {
				return false
			}
		case 't', 'f', 'n':
			if !s.literal("true") && !s.literal("false") && !s.literal("null") {
				return false
			}
		default:
			if !s.number() {
				return false
			}
		}
		// After a value: close what it ends, or go on to the next item.
		for {
			if len(open) == 0 {
				return true
			}
			s.space()
			if s.i >= len(s.d) {
				return false
			}
			inner := open[len(open)-1]
			if s.d[s.i] == inner+2 {
				s.i++
				open = open[:len(open)-1]
				continue
			}
			if s.d[s.i] != ',' {
				return false
			}
			s.i++
			if inner == '{' {
				s.space()
				if !s.colonAfterKey() {
					return false
				}
			}
			break
		}
	}
}

// key moves past the key at s.i, checking a colon follows it (after white
// space, which it leaves to the caller).
func (s *scanner) key() bool {
	if s.i >= len(s.d) || s.d[s.i] != '"' || !s.str() {
		return false
	}
	at := s.i
	s.space()
	ok := s.i < len(s.d) && s.d[s.i] == ':'
	s.i = at
	return ok
}

// colonAfterKey moves past a key and its colon.
func (s *scanner) colonAfterKey() bool {
	if !s.key() {
		return false
	}
	s.space()
	s.i++
	return true
}

func (s *scanner) space() {
	for s.i < len(s.d) && isSpace[s.d[s.i]] {
		s.i++
	}
}

// isSpace marks JSON's white space, a third of a pretty-printed file: one
// look-up a byte steps over it.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// stringStop marks the bytes of a string str looks at: the closing quote,
// an escape and the control characters JSON refuses; it steps over the
// others by this table alone.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// literal moves past word when it is next.
func (s *scanner) literal(word string) bool {
	if !bytes.HasPrefix(s.d[s.i:], []byte(word)) {
		return false
	}
	s.i += len(word)
	return true
}

// str moves past the string at s.i: no control character in it, and
// only JSON's escapes.
func (s *scanner) str() bool {
	d := s.d
	for i := s.i + 1; i < len(d); {
		for i < len(d) && !stringStop[d[i]] {
			i++
		}
		if i == len(d) {
			break
		}
		switch c := d[i]; {
		case c == '"':
			s.i = i + 1
			return true
		case c < 0x20:
			return false
		case c != '\\':
			i++
		case i+1 < len(d) && bytes.IndexByte([]byte(`"\/bfnrt`), d[i+1]) >= 0:
			i += 2
		case i+5 < len(d) && d[i+1] == 'u' && isHex(d[i+2]) && isHex(d[i+3]) && isHex(d[i+4]) && isHex(d[i+5]):
			i += 6
		default:
			return false
		}
	}
	return false
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// number moves past the number at s.i: JSON's grammar, no leading zero,
// no lone sign, dot or exponent.
func (s *scanner) number() bool {
	d, i := s.d, s.i
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		i = digits(d, i)
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		if i = digits(d, i+1); d[i-1] == '.' {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		from := i
		if i = digits(d, i); i == from {
			return false
		}
	}
	s.i = i
	return true
}

// digits is the offset past the decimal digits from d[i] on.
func digits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}
