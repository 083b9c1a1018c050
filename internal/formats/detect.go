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
	if err := jsondoc.CheckArrays(data); err != nil {
		return nil, err
	}
	// One object, the usual case, is read once, strictly: its members tell
	// the format, and its parser decodes it without checking it again.
	if top, ok := jsondoc.ReadTop(data); ok {
		if p, ok, err := ours(top); ok {
			return p, err
		}
		if parse := toolParser(top.Members()); parse != nil {
			return parse(data)
		}
		return nil, refuseOther(bytes.TrimSpace(data), false)
	}
	// Other tools' files may be JSON Lines, appended objects, an array cut
	// short or carry Python's NaN/Infinity: they are detected leniently.
	parse, err := otherToolParser(data)
	if parse != nil {
		return parse(data)
	}
	first, more := jsondoc.First(data)
	switch {
	case first == nil:
		// Not even one JSON value: let the decoder name the problem.
		var v any
		return nil, jsondoc.Decode(data, &v)
	case repeatedName(err):
		// A name given twice in a later value (JSON Lines), which the
		// lenient reader found.
		return nil, err
	}
	return nil, refuseOther(first, more)
}

// ours parses the formats speedmatrix defined or grew up with, told apart
// by their schema field or their llm-inference-bench keys.
func ours(top *jsondoc.Top) (*run.Parsed, bool, error) {
	var schema string
	_ = jsondoc.Unmarshal(top.Member("schema"), &schema)
	has := func(key string) bool { return top.Member(key) != nil }
	switch {
	case schema == lilbench.Schema:
		p, err := lilbench.ParseChecked(top.Checked)
		return p, true, err
	case schema == export.Schema:
		p, err := export.ParseChecked(top.Checked)
		return p, true, err
	case schema != "":
		return nil, true, problem.New(problem.Invalid, "$.schema", "problem.unknown_schema", map[string]any{"Schema": schema})
	case has("metadata") && (has("results") || has("prefill") || hasMode(top.Member("metadata"))),
		has("results") && has("summary_table"):
		// The second case is a bench file without its metadata (an edited or
		// partial file): the parser says what is missing.
		p, err := llmbench.ParseChecked(top.Checked, "$")
		return p, true, err
	}
	return nil, false, nil
}

func repeatedName(err error) bool {
	pe, ok := problem.As(err)
	return ok && pe.Problems[0].Key == "problem.duplicate_key"
}

func hasMode(meta jsontext.Value) bool {
	var m struct {
		Mode string `json:"mode"`
	}
	return jsondoc.Unmarshal(meta, &m) == nil && m.Mode != ""
}
