// Package formats finds out what an uploaded document is and hands it to the
// parser of its format. Each format lives in its own subpackage. The formats
// speedmatrix defined or grew up with are told apart by their schema key or
// their llm-inference-bench keys:
//
//	llmbench    llm-inference-bench's benchmark_results.json, every version from 0.2.0 on
//	lilbench    lil-bench's upload document, lil-bench-result/1
//	export      speedmatrix's own run export, speedmatrix-run/1
//
// The files of other benchmark tools are recognised by the keys of their
// first object and read leniently (NaN, Infinity, JSON Lines, appended
// objects, unterminated arrays, numbers in strings; tools.go):
//
//	vllmserve   vLLM bench serve --save-result (and the legacy benchmark_serving.py)
//	sglang      SGLang bench_serving --output-file, JSON Lines
//	llamabench  llama.cpp's llama-bench -o json and -o jsonl
//	guidellm    GuideLLM's benchmarks.json, all three generations
//	genaiperf   GenAI-Perf's and AIPerf's profile exports
//	llmperf     llmperf's summary files
//
// JSON that none of them reads is refused with a message naming the tool
// when its keys say which (other.go), or listing its keys. A zip, tar or
// gzip of result files is one run when they measure one setup (many.go).
// The parsers share jsondoc (JSON read strictly or leniently, with problems
// that name paths, and one set of number rules), sweep (grid placement,
// serving records, caveats, merging) and archive (reading archives).
package formats

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/lilbench"
	"github.com/speedmatrix/speedmatrix/internal/formats/llmbench"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Parse detects the format of data and parses it.
func Parse(data []byte) (*run.Parsed, error) {
	if archive.Detect(data) != archive.None {
		// Several result files of one sweep (many.go).
		return parseArchive(data)
	}
	if err := jsondoc.CheckUTF8(data); err != nil {
		return nil, err
	}
	if err := jsondoc.CheckShape(data); err != nil {
		return nil, err
	}
	// One object, the usual case, is told by a scan of its top-level keys
	// and decoded once, by its parser; only when data is not one is it
	// cut into its values (another pass over it).
	var first jsontext.Value
	var more bool
	if top, ok := topKeys(data); ok {
		if p, ok, err := ours(data, top); ok {
			return p, err
		}
		first = bytes.TrimSpace(data)
	} else {
		first, more = jsondoc.First(data)
	}
	// Other tools' files may be JSON Lines, appended objects, an array cut
	// short or carry Python's NaN/Infinity: they are detected leniently.
	if parse := otherToolParser(data); parse != nil {
		return parse(data)
	}
	if first == nil {
		// Not even one JSON value: let the decoder name the problem.
		var v any
		return nil, jsondoc.Decode(data, &v)
	}
	return nil, refuseOther(first, more)
}

// ours parses the formats speedmatrix defined or grew up with, told apart
// by their schema field or their llm-inference-bench keys.
func ours(data []byte, top topObject) (*run.Parsed, bool, error) {
	var schema string
	_ = jsondoc.Unmarshal(top.get("schema"), &schema)
	switch {
	case schema == lilbench.Schema:
		p, err := lilbench.Parse(data)
		return p, true, err
	case schema == export.Schema:
		p, err := export.Parse(data)
		return p, true, err
	case schema != "":
		return nil, true, problem.New(problem.Invalid, "$.schema", "problem.unknown_schema", map[string]any{"Schema": schema})
	case top.get("metadata") != nil && (top.get("results") != nil || top.get("prefill") != nil || hasMode(top.get("metadata"))),
		top.get("results") != nil && top.get("summary_table") != nil:
		// The second case is a bench file without its metadata (an edited or
		// partial file): the parser says what is missing.
		p, err := llmbench.Parse(data)
		return p, true, err
	}
	return nil, false, nil
}

func hasMode(meta jsontext.Value) bool {
	var m struct {
		Mode string `json:"mode"`
	}
	return jsondoc.Unmarshal(meta, &m) == nil && m.Mode != ""
}
