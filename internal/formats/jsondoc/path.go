package jsondoc

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
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
// the error.
func PathAt(data []byte, off int64) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []frame
	for dec.InputOffset() <= off {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		if dec.InputOffset() > off {
			// This token runs past the offset: the offset is inside it.
			if d, ok := tok.(json.Delim); ok && (d == '{' || d == '[') {
				stack = append(stack, frame{array: d == '[', wantKey: d == '{'})
			}
			break
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				stack = append(stack, frame{array: t == '[', wantKey: t == '{'})
				continue
			}
			stack = stack[:len(stack)-1]
			advance(stack)
		case string:
			if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
				stack[n-1].key, stack[n-1].wantKey = t, false
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
	q, _ := json.Marshal(k)
	return "[" + string(q) + "]"
}
