// Package formats finds out what an uploaded document is and hands it to the
// parser of that format. Each format lives in its own subpackage:
//
//	llmbench  llm-inference-bench benchmark_results.json (0.2 → 0.8)
//	lilbench  lil-bench's upload document, lil-bench-result/1
//	export    speedmatrix's own run export, speedmatrix-run/1
//
// Files of other benchmark tools are recognised and refused with a message
// that says what they are.
package formats

import (
	"bytes"
	"encoding/json"

	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/lilbench"
	"github.com/speedmatrix/speedmatrix/internal/formats/llmbench"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Parse detects the format of data and parses it.
func Parse(data []byte) (*run.Parsed, error) {
	if err := jsondoc.CheckUTF8(data); err != nil {
		return nil, err
	}
	first, more := firstValue(data)
	if first == nil {
		// Not even one JSON value: let the decoder name the problem.
		var v any
		return nil, jsondoc.Decode(data, &v)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(first, &top); err != nil || more {
		return nil, refuseOther(first, more)
	}
	var schema string
	_ = json.Unmarshal(top["schema"], &schema)
	switch {
	case schema == lilbench.Schema:
		return lilbench.Parse(data)
	case schema == export.Schema:
		return export.Parse(data)
	case schema != "":
		return nil, problem.New(problem.Invalid, "$.schema", "problem.unknown_schema", map[string]any{"Schema": schema})
	case top["metadata"] != nil && (top["results"] != nil || top["prefill"] != nil || hasMode(top["metadata"])),
		top["results"] != nil && top["summary_table"] != nil:
		// The second case is a bench file without its metadata (an edited or
		// partial file): the parser says what is missing.
		return llmbench.Parse(data)
	}
	return nil, refuseOther(first, false)
}

// firstValue returns the first JSON value of data and whether more values
// follow it (JSON Lines).
func firstValue(data []byte) (json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	rest := bytes.TrimSpace(data[dec.InputOffset():])
	return v, len(rest) > 0
}

func hasMode(meta json.RawMessage) bool {
	var m struct {
		Mode string `json:"mode"`
	}
	return json.Unmarshal(meta, &m) == nil && m.Mode != ""
}
