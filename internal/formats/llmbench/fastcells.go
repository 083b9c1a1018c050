package llmbench

import (
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// decodeDocument reads data into doc exactly as jsondoc.Decode does, but
// by a scanner of its own instead of encoding/json wherever it can, as a
// fifth of the server's CPU per upload went to encoding/json
// (docs/performance.md): it steps through every byte by its state
// machine once to check the syntax and again to decode, and fills the
// records by reflection. scanDocument reads the top-level object: the
// results array, most of a document (a record of 19 keys per cell), the
// metadata and the prefill map itself, and steps over the keys no field
// of document takes. Only when the document has another of document's
// keys (the startup diagnostics, the hardware summary, the event log, of
// 0.7 on) does encoding/json decode the rest of it, the values read here
// replaced by null. Whenever the scanner meets anything it does not
// handle as encoding/json would, or the rest does not decode, the whole
// document is decoded again by jsondoc.Decode: the same records, and the
// same problem for bad input.
func decodeDocument(data []byte, doc *document) error {
	if jsondoc.CheckUTF8(data) == nil {
		if top, ok := scanDocument(data); ok && top.decode(data, doc) {
			return nil
		}
	}
	*doc = document{}
	return jsondoc.Decode(data, doc)
}

// readCells reads a results value, all of b, as encoding/json reads it
// into []cellRec (nil for no bytes or null), or says it cannot (cells).
func readCells(b []byte) ([]cellRec, bool) {
	s := cellScanner{b: b}
	if s.end() {
		return nil, true
	}
	cells, ok := s.cells()
	return cells, ok && s.end()
}

// cells reads a results value as encoding/json reads it into []cellRec
// (nil for null), or says it cannot: ok is false for anything outside the
// plain shape a tool writes (bad syntax, a key that is not plain ASCII or
// matches a field only by case, an escape in a key or a field's string, a
// field's value of another type, a number out of range), and the caller
// decodes the document the slow way.
func (s *cellScanner) cells() (cells []cellRec, ok bool) {
	if s.literal("null") {
		return nil, true
	}
	if !s.byte('[') {
		return nil, false
	}
	cells = []cellRec{}
	s.space()
	if s.byte(']') {
		return cells, true
	}
	for {
		var c cellRec
		s.space()
		if !s.literal("null") && !s.cell(&c) {
			return nil, false
		}
		cells = append(cells, c)
		s.space()
		if s.byte(']') {
			return cells, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

// cellField is c's field of the exact key (cellRec's tags), a *float64
// field's address, a bool's or a string's; nil for no field. A switch, not
// a map: two map reads per key were most of readCells' time.
func cellField(key []byte, c *cellRec) any {
	switch string(key) {
	case "concurrency":
		return &c.Concurrency
	case "context_tokens":
		return &c.ContextTokens
	case "aggregate_tps":
		return &c.AggregateTPS
	case "per_request_avg_tps":
		return &c.PerRequestAvgTPS
	case "output_tps_per_user_p50":
		return &c.OutputTPSPerUserP50
	case "ttft_p50":
		return &c.TTFTP50
	case "inter_token_latency_p50":
		return &c.ITLP50
	case "total_tokens":
		return &c.TotalTokens
	case "client_output_tokens":
		return &c.ClientOutputTokens
	case "num_completed":
		return &c.NumCompleted
	case "completed_request_count":
		return &c.CompletedRequests
	case "measurement_seconds":
		return &c.MeasurementSeconds
	case "avg_running_reqs":
		return &c.AvgRunningReqs
	case "avg_queue_reqs":
		return &c.AvgQueueReqs
	case "queue_fraction":
		return &c.QueueFraction
	case "capacity_limited":
		return &c.CapacityLimited
	case "failure_reason":
		return &c.FailureReason
	case "loop_detected":
		return &c.LoopDetected
	case "aggregate_source":
		return &c.AggregateSource
	}
	return nil
}

// cellScanner reads b from i; every method that fails leaves ok false to
// its caller, who gives up.
type cellScanner struct {
	b []byte
	i int
	// slab holds the numbers the cells point to, a few hundred to an
	// allocation, where encoding/json allocates one per number.
	slab []float64
}

// keep returns a pointer to v, kept in the slab.
func (s *cellScanner) keep(v float64) *float64 {
	if len(s.slab) == cap(s.slab) {
		s.slab = make([]float64, 0, 256)
	}
	s.slab = append(s.slab, v)
	return &s.slab[len(s.slab)-1]
}

func (s *cellScanner) space() {
	for s.i < len(s.b) && isSpace[s.b[s.i]] {
		s.i++
	}
}

// isSpace marks JSON's white space: a pretty-printed file is a third of
// it, stepped over by one look-up a byte.
var isSpace = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

func (s *cellScanner) end() bool {
	s.space()
	return s.i == len(s.b)
}

func (s *cellScanner) byte(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// literal reads word when it is next and not followed by more of a word.
func (s *cellScanner) literal(word string) bool {
	j := s.i + len(word)
	if j > len(s.b) || string(s.b[s.i:j]) != word || (j < len(s.b) && isWordByte(s.b[j])) {
		return false
	}
	s.i = j
	return true
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// cell reads one object into c.
func (s *cellScanner) cell(c *cellRec) bool {
	return s.members(func(key []byte) bool {
		field := cellField(key, c)
		return (field != nil || plainKey(key)) && s.value(field, c)
	})
}

// plainKey is a key readCells can match as encoding/json does: an exact
// field name, or a key of ASCII letters, digits and underscores that no
// field's name equals without regard to case (encoding/json would match
// that one by case folding). No allocation: a map read by string(b) copies
// nothing.
func plainKey(key []byte) bool {
	var probe cellRec
	if cellField(key, &probe) != nil {
		return true
	}
	var lower [32]byte
	for i, c := range key {
		if !isWordByte(c) {
			return false
		}
		if i < len(lower) {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
	}
	if len(key) > len(lower) {
		return true // longer than any field's name
	}
	return cellField(lower[:len(key)], &probe) == nil
}

// value reads a key's value into field, c's field of that key
// (cellField), as encoding/json would: a number or null into a *float64
// (null sets it nil), true or false into a bool, a string into a string
// (null leaves either as it was). An unknown key's value (a nil field)
// is skipped, whatever it holds (0.7.8 writes arrays of objects under
// loop_diagnostics).
func (s *cellScanner) value(field any, c *cellRec) bool {
	if field == nil {
		return s.skip(0)
	}
	switch f := field.(type) {
	case **float64:
		return s.optNumber(f)
	case *bool:
		return s.boolean(f)
	case *string:
		return s.str(f)
	}
	return false
}

// maxDepth is encoding/json's limit of nesting.
const maxDepth = 10000

// skip steps over one JSON value, checking its syntax as encoding/json
// does; depth is how deep in the cell it is.
func (s *cellScanner) skip(depth int) bool {
	if depth >= maxDepth-2 { // the array and the cell hold it
		return false
	}
	switch {
	case s.literal("null"), s.literal("true"), s.literal("false"):
		return true
	case s.i < len(s.b) && s.b[s.i] == '"':
		return s.skipString()
	case s.byte('['):
		return s.skipMembers(']', depth, func() bool { return s.skip(depth + 1) })
	case s.byte('{'):
		return s.skipMembers('}', depth, func() bool {
			if !s.skipString() {
				return false
			}
			s.space()
			if !s.byte(':') {
				return false
			}
			s.space()
			return s.skip(depth + 1)
		})
	}
	_, ok := s.number()
	return ok
}

// skipMembers steps over the members of an array or object, after its
// opening, up to close.
func (s *cellScanner) skipMembers(close byte, depth int, member func() bool) bool {
	s.space()
	if s.byte(close) {
		return true
	}
	for {
		s.space()
		if !member() {
			return false
		}
		s.space()
		if s.byte(close) {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// skipString steps over a string, escapes and all.
func (s *cellScanner) skipString() bool {
	if !s.byte('"') {
		return false
	}
	for s.i < len(s.b) {
		c := s.b[s.i]
		s.i++
		switch {
		case c == '"':
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if s.i == len(s.b) {
				return false
			}
			e := s.b[s.i]
			s.i++
			switch e {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for range 4 {
					if s.i == len(s.b) || !isHex(s.b[s.i]) {
						return false
					}
					s.i++
				}
			default:
				return false
			}
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// plainString reads a string without escapes or control characters: its
// bytes, a slice of the document's.
func (s *cellScanner) plainString() ([]byte, bool) {
	if !s.byte('"') {
		return nil, false
	}
	start := s.i
	for s.i < len(s.b) && !stringStop[s.b[s.i]] {
		s.i++
	}
	if s.i == len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	s.i++
	return s.b[start : s.i-1], true
}

// stringStop marks the bytes plainString stops at: the closing quote, a
// backslash and the control characters JSON does not allow in a string.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// number reads a JSON number (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?)
// as a float64, as encoding/json does (strconv.ParseFloat); one out of
// range is refused. One of at most 15 digits and no exponent, what a tool
// writes for most measurements, is computed from the digits as they are
// read, exactly as ParseFloat would: such a mantissa is below 2^52 and
// its power of ten at most 10^15, both exact as float64s, and one
// division of the two is rounded once, correctly; ParseFloat computes
// exactly that first (its atof64exact). The rest go to ParseFloat.
func (s *cellScanner) number() (float64, bool) {
	start := s.i
	neg := s.byte('-')
	var mantissa uint64
	digits, fraction := 0, 0
	switch {
	case s.byte('0'):
		digits = 1
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		digits = s.digitsInto(&mantissa)
	default:
		return 0, false
	}
	if s.byte('.') {
		if fraction = s.digitsInto(&mantissa); fraction == 0 {
			return 0, false
		}
		digits += fraction
	}
	exponent := s.byte('e') || s.byte('E')
	if exponent {
		if !s.byte('+') {
			s.byte('-')
		}
		if !s.digits() {
			return 0, false
		}
	}
	if s.i < len(s.b) && isWordByte(s.b[s.i]) {
		return 0, false
	}
	if !exponent && digits <= 15 {
		f := float64(mantissa) / pow10[fraction]
		if neg {
			f = -f
		}
		return f, true
	}
	v, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	return v, err == nil
}

// pow10 are the powers of ten number divides by, each exact.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// digitsInto reads digits as digits does, and returns how many, each
// added to *m (which past 19 digits overflows: number then reads the
// digits again with ParseFloat).
func (s *cellScanner) digitsInto(m *uint64) int {
	start, v := s.i, *m
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		v = v*10 + uint64(s.b[s.i]-'0')
		s.i++
	}
	*m = v
	return s.i - start
}

// digits reads one digit or more.
func (s *cellScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
