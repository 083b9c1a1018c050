package llmbench

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// The top level of a document for decodeDocument: the keys it reads
// itself, each a bit of scanned.read.
const (
	readMetadata = 1 << iota
	readPrefill
	readResults
)

// scanned is a document's top level as scanDocument read it.
type scanned struct {
	read   int      // which of the keys read here the document has
	fields document // their values
	spans  [][2]int // where those values stand in the document
	// rest says another key of the document is one of document's fields
	// (its name, or that name by case), for encoding/json to decode.
	rest bool
}

// scanDocument reads the top-level object of data as encoding/json would
// into a document, but for the keys left to it (scanned.rest). ok is false
// unless data is an object of plain keys (no escape, ASCII) whose
// metadata, prefill and results values, each there at most once, read as
// encoding/json reads them; a key that matches one of those three only by
// case, or that encoding/json might match by Unicode's case folding, is
// left to encoding/json's rules too.
func scanDocument(data []byte) (sc scanned, ok bool) {
	s := cellScanner{b: data}
	s.space()
	ok = s.members(func(key []byte) bool {
		start, bit, ok := s.i, 0, false
		switch string(key) {
		case "metadata":
			bit, ok = readMetadata, s.metadata(&sc.fields.Metadata)
		case "prefill":
			bit, ok = readPrefill, s.prefill(&sc.fields.Prefill)
		case "results":
			bit = readResults
			sc.fields.Results, ok = s.cells()
		default:
			switch documentKey(key) {
			case "metadata", "prefill", "results", "?":
				return false
			case "":
			default:
				sc.rest = true
			}
			ok = s.skip(0)
		}
		if !ok {
			return false
		}
		if bit != 0 {
			if sc.read&bit != 0 {
				return false // repeated: encoding/json decodes the second into the first
			}
			sc.read |= bit
			sc.spans = append(sc.spans, [2]int{start, s.i})
		}
		return true
	})
	return sc, ok && s.end()
}

// decode puts what sc read into doc, after encoding/json has decoded the
// rest of data into it when the rest holds any of document's fields; false
// when the rest does not decode.
func (sc *scanned) decode(data []byte, doc *document) bool {
	if sc.rest {
		rest := make([]byte, 0, len(data))
		at := 0
		for _, span := range sc.spans {
			rest = append(append(rest, data[at:span[0]]...), "null"...)
			at = span[1]
		}
		if jsondoc.Decode(append(rest, data[at:]...), doc) != nil {
			return false
		}
	}
	if sc.read&readMetadata != 0 {
		doc.Metadata = sc.fields.Metadata
	}
	if sc.read&readPrefill != 0 {
		doc.Prefill = sc.fields.Prefill
	}
	if sc.read&readResults != 0 {
		doc.Results = sc.fields.Results
	}
	return true
}

// documentKeys are the JSON names of document's fields.
var documentKeys = []string{"metadata", "startup_diagnostics", "hardware_run_summary", "event_log", "prefill", "results"}

// documentKey is the name of the field of document encoding/json decodes
// key into: "" for none, "?" when it cannot be told here (a byte past
// ASCII, which Unicode's case folding may match to a letter).
func documentKey(key []byte) string {
	return fieldOf(key, documentKeys)
}

// fieldOf is the one of names (JSON names in lower case) that key equals
// without regard to case, as encoding/json matches a key to a field when
// none equals it exactly; "" for none, "?" for a key with a byte past
// ASCII.
func fieldOf(key []byte, names []string) string {
	for _, c := range key {
		if c >= 0x80 {
			return "?"
		}
	}
	for _, name := range names {
		if len(name) == len(key) && strings.EqualFold(name, string(key)) {
			return name
		}
	}
	return ""
}

// metadataKeys are the JSON names of metadata's fields.
var metadataKeys = []string{"version", "mode", "engine", "model", "server_version", "timestamp", "decode_mode",
	"prefill_mode", "prefill_only", "duration_per_test", "request_count", "max_tokens", "max_total_tokens",
	"metrics_available", "concurrency_levels", "context_lengths"}

// metadata reads a metadata value into *p as encoding/json does into a
// *metadata: null is nil, an object a new metadata.
func (s *cellScanner) metadata(p **metadata) bool {
	if s.literal("null") {
		*p = nil
		return true
	}
	m := &metadata{}
	*p = m
	return s.members(func(key []byte) bool {
		switch string(key) {
		case "version":
			return s.optString(&m.Version)
		case "mode":
			return s.str(&m.Mode)
		case "engine":
			return s.str(&m.Engine)
		case "model":
			return s.str(&m.Model)
		case "server_version":
			return s.str(&m.ServerVersion)
		case "timestamp":
			return s.str(&m.Timestamp)
		case "decode_mode":
			return s.str(&m.DecodeMode)
		case "prefill_mode":
			return s.str(&m.PrefillMode)
		case "prefill_only":
			return s.boolean(&m.PrefillOnly)
		case "duration_per_test":
			return s.optNumber(&m.DurationPerTest)
		case "request_count":
			return s.optNumber(&m.RequestCount)
		case "max_tokens":
			return s.optNumber(&m.MaxTokens)
		case "max_total_tokens":
			return s.optNumber(&m.MaxTotalTokens)
		case "metrics_available":
			return s.optBool(&m.MetricsAvailable)
		case "concurrency_levels":
			return s.numbers(&m.ConcurrencyLevels)
		case "context_lengths":
			return s.numbers(&m.ContextLengths)
		}
		return fieldOf(key, metadataKeys) == "" && s.skip(1)
	})
}

// prefillKeys are the JSON names of prefillRec's fields.
var prefillKeys = []string{"ttft_seconds", "tok_per_sec", "samples"}

// prefill reads a prefill value into *p as encoding/json does into a
// map[string]prefillRec: null is nil, an object a new map whose every
// key holds a record of its own value (null, a zero record), the last of
// a repeated key.
func (s *cellScanner) prefill(p *map[string]prefillRec) bool {
	if s.literal("null") {
		*p = nil
		return true
	}
	m := map[string]prefillRec{}
	*p = m
	return s.members(func(key []byte) bool {
		var rec prefillRec
		if !s.literal("null") && !s.members(func(field []byte) bool {
			switch string(field) {
			case "ttft_seconds":
				return s.optNumber(&rec.TTFTSeconds)
			case "tok_per_sec":
				return s.optNumber(&rec.TokPerSec)
			case "samples":
				return s.optNumber(&rec.Samples)
			}
			return fieldOf(field, prefillKeys) == "" && s.skip(2)
		}) {
			return false
		}
		m[string(key)] = rec
		return true
	})
}

// members reads an object, calling member for each of its keys (plain
// strings) with s at the key's value, which member reads.
func (s *cellScanner) members(member func(key []byte) bool) bool {
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
		if !ok {
			return false
		}
		s.space()
		if !s.byte(':') {
			return false
		}
		s.space()
		if !member(key) {
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

// str reads a string into *p (null leaves it), as into a string field.
func (s *cellScanner) str(p *string) bool {
	if s.literal("null") {
		return true
	}
	v, ok := s.plainString()
	if ok {
		*p = string(v)
	}
	return ok
}

// optString reads a string or null into *p, as into a *string field.
func (s *cellScanner) optString(p **string) bool {
	if s.literal("null") {
		*p = nil
		return true
	}
	v, ok := s.plainString()
	if ok {
		str := string(v)
		*p = &str
	}
	return ok
}

// boolean reads true or false into *p (null leaves it), as into a bool.
func (s *cellScanner) boolean(p *bool) bool {
	switch {
	case s.literal("null"):
	case s.literal("true"):
		*p = true
	case s.literal("false"):
		*p = false
	default:
		return false
	}
	return true
}

// optBool reads true, false or null into *p, as into a *bool field.
func (s *cellScanner) optBool(p **bool) bool {
	if s.literal("null") {
		*p = nil
		return true
	}
	var b bool
	if !s.boolean(&b) {
		return false
	}
	*p = &b
	return true
}

// optNumber reads a number or null into *p, as into a *float64 field.
func (s *cellScanner) optNumber(p **float64) bool {
	if s.literal("null") {
		*p = nil
		return true
	}
	v, ok := s.number()
	if ok {
		*p = s.keep(v)
	}
	return ok
}

// numbers reads an array of numbers or null into *p, as into a []float64
// field: [] is an empty slice, not nil. A null element is left to
// encoding/json.
func (s *cellScanner) numbers(p *[]float64) bool {
	if s.literal("null") {
		*p = nil
		return true
	}
	if !s.byte('[') {
		return false
	}
	out := []float64{}
	s.space()
	if !s.byte(']') {
		for {
			s.space()
			v, ok := s.number()
			if !ok {
				return false
			}
			out = append(out, v)
			s.space()
			if s.byte(']') {
				break
			}
			if !s.byte(',') {
				return false
			}
		}
	}
	*p = out
	return true
}
