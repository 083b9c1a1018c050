package ingest

import (
	"encoding/json"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// MetaFromJSON reads metadata from a JSON object whose keys are the names of
// MetaFields (the CLI's --meta file, the demo runs); numbers may be written
// as numbers or strings.
func MetaFromJSON(data []byte) (Meta, error) {
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return Meta{}, problem.New(problem.Malformed, "$", "problem.meta_json", map[string]any{"Detail": err.Error()})
	}
	known := map[string]bool{}
	for _, f := range MetaFields {
		known[f.Name] = true
	}
	probs := problem.List{Kind: problem.Invalid}
	for k := range obj {
		if !known[k] {
			probs.Add(k, "problem.meta_unknown", map[string]any{"Field": k})
		}
	}
	if err := probs.Err(); err != nil {
		return Meta{}, err
	}
	return ParseMeta(func(name string) string {
		switch v := obj[name].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		default:
			return ""
		}
	})
}
