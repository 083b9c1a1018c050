package ingest

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// FieldsFromJSON reads metadata fields from a JSON object whose keys are
// the names of MetaFields (the CLI's --meta file, the demo runs); numbers
// may be written as numbers or strings. Unknown keys and values the fields
// refuse are problems at once, so a bad --meta file stops before any
// upload is tried.
func FieldsFromJSON(data []byte) (map[string]string, error) {
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, problem.New(problem.Malformed, "$", "problem.meta_json", map[string]any{"Detail": err.Error()})
	}
	known := map[string]bool{}
	for _, f := range MetaFields {
		known[f.Name] = true
	}
	probs := problem.List{Kind: problem.Invalid}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys) // problems in a stable order
	fields := map[string]string{}
	for _, k := range keys {
		if !known[k] {
			probs.Add(k, "problem.meta_unknown", map[string]any{"Field": k})
			continue
		}
		switch v := obj[k].(type) {
		case string:
			fields[k] = v
		case float64:
			fields[k] = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	if err := probs.Err(); err != nil {
		return nil, err
	}
	if _, err := ParseMeta(func(name string) string { return fields[name] }); err != nil {
		return nil, err
	}
	return fields, nil
}
