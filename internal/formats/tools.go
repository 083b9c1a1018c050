package formats

import (
	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/genaiperf"
	"github.com/speedmatrix/speedmatrix/internal/formats/guidellm"
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/llamabench"
	"github.com/speedmatrix/speedmatrix/internal/formats/llmperf"
	"github.com/speedmatrix/speedmatrix/internal/formats/sglang"
	"github.com/speedmatrix/speedmatrix/internal/formats/vllmserve"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// toolReader is the parser of another benchmark tool's files and how to
// recognise one by the keys of its first object (the first test, line or
// appended result); docs/formats.md lists what each tool writes.
type toolReader struct {
	detect func(top map[string]jsontext.Value) bool
	parse  func(data []byte) (*run.Parsed, error)
}

// toolReaders are tried in order; the most distinctive keys come first.
// other.go still names these tools for files whose keys half match.
var toolReaders = []toolReader{
	{llamabench.Detect, llamabench.Parse},
	{guidellm.Detect, guidellm.Parse},
	{llmperf.Detect, llmperf.Parse},
	// An llmperf individual-responses list: its parser says to upload the
	// summary instead.
	{func(top map[string]jsontext.Value) bool { return top["ttft_s"] != nil && top["error_code"] != nil }, llmperf.Parse},
	{genaiperf.Detect, genaiperf.Parse},
	{sglang.Detect, sglang.Parse},
	{vllmserve.Detect, vllmserve.Parse},
}

// otherToolParser returns the parser of the tool that wrote data, read
// leniently, or nil, and why the lenient reader refused data, if it did.
func otherToolParser(data []byte) (func([]byte) (*run.Parsed, error), error) {
	docs, err := jsondoc.Split(data)
	if err != nil {
		return nil, err
	}
	var top map[string]jsontext.Value
	if jsondoc.Unmarshal(docs.Values[0], &top) != nil {
		return nil, nil
	}
	return toolParser(top), nil
}

// toolParser returns the parser of the tool whose file's first object has
// the members top, or nil.
func toolParser(top map[string]jsontext.Value) func([]byte) (*run.Parsed, error) {
	for _, t := range toolReaders {
		if t.detect(top) {
			return t.parse
		}
	}
	return nil
}
