package jsondoc

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

func TestDecodeNamesThePath(t *testing.T) {
	type cell struct {
		TPS float64 `json:"aggregate_tps"`
	}
	type doc struct {
		Results []cell `json:"results"`
	}
	tests := []struct {
		name, in, path, key string
		kind                problem.Kind
	}{
		{"nan", `{"results":[{"aggregate_tps":1},{"aggregate_tps":NaN}]}`, "$.results[1].aggregate_tps", "problem.nonfinite", problem.Invalid},
		{"infinity", `{"results":[{"aggregate_tps":-Infinity}]}`, "$.results[0].aggregate_tps", "problem.nonfinite", problem.Invalid},
		{"type", `{"results":[{"aggregate_tps":1},{"aggregate_tps":"fast"}]}`, "$.results[1].aggregate_tps", "problem.type", problem.Invalid},
		{"truncated", `{"results":[{"aggregate_tps":1},{"aggr`, "$.results[1]", "problem.truncated", problem.Malformed},
		{"syntax", `{"results":[{"aggregate_tps":1,,}]}`, "$.results[0]", "problem.syntax", problem.Malformed},
		{"utf8", "{\"results\":[{\"aggregate_tps\":1,\"x\":\"\xff\"}]}", "$.results[0].x", "problem.utf8", problem.Malformed},
		{"empty", "  ", "$", "problem.empty", problem.Malformed},
		{"not json", "<html>", "$", "problem.syntax", problem.Malformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d doc
			err := Decode([]byte(tt.in), &d)
			pe, ok := problem.As(err)
			if !ok {
				t.Fatalf("Decode(%q) = %v, want a problem", tt.in, err)
			}
			p := pe.Problems[0]
			if p.Path != tt.path || p.Key != tt.key || pe.Kind != tt.kind {
				t.Errorf("Decode(%q) = %s %s kind %d, want %s %s kind %d", tt.in, p.Path, p.Key, pe.Kind, tt.path, tt.key, tt.kind)
			}
		})
	}
}

func TestPathAtKeys(t *testing.T) {
	in := `{"a":{"odd key":[1,2,{"b":3}]}}`
	off := int64(strings.Index(in, "3"))
	if got, want := PathAt([]byte(in), off), `$.a["odd key"][2].b`; got != want {
		t.Errorf("PathAt = %s, want %s", got, want)
	}
}
