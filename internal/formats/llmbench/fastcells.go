package llmbench

import (
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// decodeDocument reads data into doc exactly as jsondoc.Decode does, the
// results array (most of a document: a record of 19 keys per cell) read by
// readCells instead of encoding/json's reflection, which was a fifth of
// the server's CPU per upload (docs/performance.md). Whenever readCells
// meets anything it does not handle as encoding/json would, and whenever
// the rest does not decode, the whole document is decoded again by
// jsondoc.Decode: the same records, and the same problem for bad input.
func decodeDocument(data []byte, doc *document) error {
	var fast struct {
		document
		// Shadows document.Results: encoding/json keeps the array's bytes.
		Results rawBytes `json:"results"`
	}
	if err := jsondoc.Decode(data, &fast); err == nil && fast.Results.n <= 1 {
		if cells, ok := readCells(fast.Results.b); ok {
			*doc = fast.document
			doc.Results = cells
			return nil
		}
	}
	*doc = document{}
	return jsondoc.Decode(data, doc)
}

// rawBytes keeps a value's bytes as json.RawMessage does, without its
// copy (12 KB of the seed document, 90 KB of the 0.7.8 sample): the bytes
// are a slice of the document itself, which json.Unmarshal reads in place
// and decodeDocument's caller keeps unchanged while it reads them. n
// counts the values: encoding/json keeps the last of a repeated key, but
// reports a wrong type in any of them, which only the slow way sees.
type rawBytes struct {
	b []byte
	n int
}

// UnmarshalJSON keeps b.
func (r *rawBytes) UnmarshalJSON(b []byte) error {
	r.b, r.n = b, r.n+1
	return nil
}

// cellFields are cellRec's fields by their exact key: a *float64 field,
// or a bool or a string one.
var cellFields = map[string]func(c *cellRec) any{
	"concurrency":             func(c *cellRec) any { return &c.Concurrency },
	"context_tokens":          func(c *cellRec) any { return &c.ContextTokens },
	"aggregate_tps":           func(c *cellRec) any { return &c.AggregateTPS },
	"per_request_avg_tps":     func(c *cellRec) any { return &c.PerRequestAvgTPS },
	"output_tps_per_user_p50": func(c *cellRec) any { return &c.OutputTPSPerUserP50 },
	"ttft_p50":                func(c *cellRec) any { return &c.TTFTP50 },
	"inter_token_latency_p50": func(c *cellRec) any { return &c.ITLP50 },
	"total_tokens":            func(c *cellRec) any { return &c.TotalTokens },
	"client_output_tokens":    func(c *cellRec) any { return &c.ClientOutputTokens },
	"num_completed":           func(c *cellRec) any { return &c.NumCompleted },
	"completed_request_count": func(c *cellRec) any { return &c.CompletedRequests },
	"measurement_seconds":     func(c *cellRec) any { return &c.MeasurementSeconds },
	"avg_running_reqs":        func(c *cellRec) any { return &c.AvgRunningReqs },
	"avg_queue_reqs":          func(c *cellRec) any { return &c.AvgQueueReqs },
	"queue_fraction":          func(c *cellRec) any { return &c.QueueFraction },
	"capacity_limited":        func(c *cellRec) any { return &c.CapacityLimited },
	"failure_reason":          func(c *cellRec) any { return &c.FailureReason },
	"loop_detected":           func(c *cellRec) any { return &c.LoopDetected },
	"aggregate_source":        func(c *cellRec) any { return &c.AggregateSource },
}

// readCells reads a results array as encoding/json reads it into
// []cellRec (nil for no bytes or null), or says it cannot: ok is false for
// anything outside the plain shape a tool writes (bad syntax, a key that
// is not plain ASCII or matches a field only by case, an escape in a key
// or a field's string, a field's value of another type, a number out of
// range), and the caller decodes the document the slow way.
func readCells(b []byte) (cells []cellRec, ok bool) {
	s := cellScanner{b: b}
	s.space()
	if s.i == len(b) || s.literal("null") {
		s.space()
		return nil, s.i == len(b)
	}
	if !s.byte('[') {
		return nil, false
	}
	cells = []cellRec{}
	s.space()
	if s.byte(']') {
		return cells, s.end()
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
			return cells, s.end()
		}
		if !s.byte(',') {
			return nil, false
		}
	}
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
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

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
	if !s.byte('{') {
		return false
	}
	s.space()
	if s.byte('}') {
		return true
	}
	for {
		s.space()
		key, ok := s.plainString()
		if !ok || !plainKey(key) {
			return false
		}
		s.space()
		if !s.byte(':') {
			return false
		}
		s.space()
		if !s.value(key, c) {
			return false
		}
		s.space()
		if s.byte('}') {
			return true
		}
		if !s.byte(',') {
			return false
		}
	}
}

// plainKey is a key readCells can match as encoding/json does: an exact
// field name, or a key of ASCII letters, digits and underscores that no
// field's name equals without regard to case (encoding/json would match
// that one by case folding).
func plainKey(key string) bool {
	if _, ok := cellFields[key]; ok {
		return true
	}
	for i := 0; i < len(key); i++ {
		if !isWordByte(key[i]) {
			return false
		}
	}
	for name := range cellFields {
		if len(name) == len(key) && equalFoldASCII(name, key) {
			return false
		}
	}
	return true
}

func equalFoldASCII(a, b string) bool {
	lower := func(c byte) byte {
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

// value reads key's value into c's field, as encoding/json would: a
// number or null into a *float64 (null sets it nil), true or false into a
// bool, a string into a string (null leaves either as it was). An
// unknown key's value is skipped, whatever it holds (0.7.8 writes arrays
// of objects under loop_diagnostics).
func (s *cellScanner) value(key string, c *cellRec) bool {
	field, known := cellFields[key]
	if !known {
		return s.skip(0)
	}
	switch f := field(c).(type) {
	case **float64:
		if s.literal("null") {
			*f = nil
			return true
		}
		v, ok := s.number()
		if ok {
			*f = s.keep(v)
		}
		return ok
	case *bool:
		switch {
		case s.literal("null"):
		case s.literal("true"):
			*f = true
		case s.literal("false"):
			*f = false
		default:
			return false
		}
		return true
	case *string:
		if s.literal("null") {
			return true
		}
		v, ok := s.plainString()
		if ok {
			*f = v
		}
		return ok
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

// plainString reads a string without escapes or control characters.
func (s *cellScanner) plainString() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start := s.i
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			v := string(s.b[start:s.i])
			s.i++
			return v, true
		case c == '\\' || c < 0x20:
			return "", false
		}
		s.i++
	}
	return "", false
}

// number reads a JSON number (-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?)
// as a float64, as encoding/json does; one out of range is refused.
func (s *cellScanner) number() (float64, bool) {
	start := s.i
	s.byte('-')
	switch {
	case s.byte('0'):
	case s.i < len(s.b) && s.b[s.i] >= '1' && s.b[s.i] <= '9':
		s.digits()
	default:
		return 0, false
	}
	if s.byte('.') && !s.digits() {
		return 0, false
	}
	if s.byte('e') || s.byte('E') {
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
	v, err := strconv.ParseFloat(string(s.b[start:s.i]), 64)
	return v, err == nil
}

// digits reads one digit or more.
func (s *cellScanner) digits() bool {
	start := s.i
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	return s.i > start
}
