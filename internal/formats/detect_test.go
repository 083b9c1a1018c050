package formats

import (
	"bytes"
	"os"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// TestParseRefusesLikeTheDecoder checks that bad documents of our format
// get the strict decoder's problem, though detection reads them first: a
// byte-order mark, the seed document cut short, a syntax error in it, NaN
// in it, a name given twice in one of its cells (written two ways, as a
// scan of the bytes could not tell), and a value of the wrong type before
// the end is cut off (the syntax is named first, wherever it is).
func TestParseRefusesLikeTheDecoder(t *testing.T) {
	seed, err := os.ReadFile("../demo/runs/seed-rtx3060.bench.json")
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`"aggregate_tps": [0-9.]+`).FindIndex(seed)
	concurrency := bytes.Index(seed, []byte(`"concurrency": 1`))
	for name, c := range map[string]struct {
		data []byte
		key  string
	}{
		"bom":       {append([]byte("\xef\xbb\xbf"), seed...), "problem.bom"},
		"truncated": {seed[:len(seed)/2], "problem.truncated"},
		"syntax":    {slices.Concat(seed[:first[0]], []byte(`"aggregate_tps" 1`), seed[first[1]:]), "problem.syntax"},
		"nan":       {slices.Concat(seed[:first[0]], []byte(`"aggregate_tps": NaN`), seed[first[1]:]), "problem.nonfinite"},
		"twice":     {slices.Concat(seed[:first[0]], []byte(`"aggregate_tps": 1, "aggregate_t\u0070s": 2`), seed[first[1]:]), "problem.duplicate_key"},
		"type, then cut": {slices.Concat(seed[:concurrency], []byte(`"concurrency": "1"`),
			seed[concurrency+len(`"concurrency": 1`):len(seed)-2]), "problem.truncated"},
	} {
		_, err := Parse(c.data)
		var v any
		want := jsondoc.Decode(c.data, &v)
		if p, ok := problem.As(err); !ok || p.Problems[0].Key != c.key || !reflect.DeepEqual(err, want) {
			t.Errorf("%s: Parse = %v, want %v, a problem %s", name, err, want, c.key)
		}
	}
}
