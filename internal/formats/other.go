package formats

import (
	"bytes"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// otherTools names the tool of a file by keys the tool always writes, for
// a file that no reader (tools.go) took: a version, variant or edited file
// whose keys are the tool's but not the ones its reader recognises. The
// answer then says which tool the file looks like and that it lacks what
// speedmatrix reads from it, instead of "unknown format".
var otherTools = []struct {
	name string
	keys []string // all must be present
}{
	{"GuideLLM", []string{"benchmarks"}},
	{"AIPerf", []string{"aiperf_version"}},
	{"AIPerf", []string{"records", "input_config"}},
	{"GenAI-Perf", []string{"input_config", "output_token_throughput"}},
	{"llmperf", []string{"num_concurrent_requests"}},
	{"llmperf", []string{"error_code", "ttft_s"}},
}

// refuseOther answers a document that is JSON but not a format we read.
func refuseOther(first jsontext.Value, more bool) error {
	var top map[string]jsontext.Value
	// Told by the first byte: null unmarshals into a map and a slice alike.
	kind := ""
	if t := bytes.TrimSpace(first); len(t) > 0 {
		kind = map[byte]string{'{': "object", '[': "array"}[t[0]]
	}
	switch kind {
	case "object":
		_ = jsondoc.Unmarshal(first, &top)
	case "array":
		var list []jsontext.Value
		if jsondoc.Unmarshal(first, &list) == nil && len(list) > 0 {
			_ = jsondoc.Unmarshal(list[0], &top) // keys of a first item that is an object
		}
	default:
		kind = "value"
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	for _, t := range otherTools {
		if allIn(t.keys, top) {
			return problem.New(problem.Invalid, "$", "problem.other_tool", map[string]any{"Tool": t.name})
		}
	}
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = keys[:8]
	}
	return problem.New(problem.Invalid, "$", "problem.unknown_format", map[string]any{"Kind": kind, "Keys": strings.Join(keys, ", "), "Lines": more})
}

func allIn(keys []string, top map[string]jsontext.Value) bool {
	for _, k := range keys {
		if _, ok := top[k]; !ok {
			return false
		}
	}
	return true
}
