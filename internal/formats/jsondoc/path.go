package jsondoc

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

type frame struct {
	array   bool
	index   int
	key     string
	wantKey bool
}

// PathAt returns the JSON path ("$.results[3].aggregate_tps") of the value
// that contains byte offset off, reading tokens up to that point. It works on
// truncated and invalid documents too: the path is the one reached before
// the error (a name given twice and invalid UTF-8 are read on, as the
// offset may be theirs).
func PathAt(data []byte, off int64) string {
	dec := jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var stack []frame
	for dec.InputOffset() <= off {
		tok, err := dec.ReadToken()
		if err != nil {
			break
		}
		kind := tok.Kind()
		if dec.InputOffset() > off {
			// This token runs past the offset: the offset is inside it.
			if kind == '{' || kind == '[' {
				stack = append(stack, frame{array: kind == '[', wantKey: kind == '{'})
			}
			break
		}
		switch kind {
		case '{', '[':
			stack = append(stack, frame{array: kind == '[', wantKey: kind == '{'})
			continue
		case '}', ']':
			stack = stack[:len(stack)-1]
			advance(stack)
		case '"':
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = tok.String(), false
				continue
			}
			advance(stack)
		default:
			advance(stack)
		}
	}
	return render(stack)
}

// advance moves the innermost container past a completed value.
func advance(stack []frame) {
	if n := len(stack); n > 0 {
		if stack[n-1].array {
			stack[n-1].index++
		} else {
			stack[n-1].wantKey = true
		}
	}
}

// maxPathSteps bounds a rendered path: result files nest a few levels, and
// a path into a hostile document nested thousands deep would be as long as
// the document. Deeper steps are written as one "…".
const maxPathSteps = 12

func render(stack []frame) string {
	var b strings.Builder
	b.WriteString("$")
	for i, f := range stack {
		switch {
		case i == maxPathSteps:
			b.WriteString("…")
			return b.String()
		case f.array:
			b.WriteString("[" + strconv.Itoa(f.index) + "]")
		case !f.wantKey:
			b.WriteString(Key(f.key))
		}
	}
	return b.String()
}

// Key renders one object key as a path step: ".name" or `["odd key"]`.
func Key(k string) string {
	simple := k != ""
	for _, r := range k {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			simple = false
			break
		}
	}
	if simple {
		return "." + k
	}
	// Quoted as encoding/json quotes a string: <, > and & escaped too.
	q, _ := json.Marshal(k, jsontext.EscapeForHTML(true), jsontext.EscapeForJS(true), jsontext.AllowInvalidUTF8(true))
	return "[" + string(q) + "]"
}
