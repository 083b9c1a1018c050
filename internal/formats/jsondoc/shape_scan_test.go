package jsondoc

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// TestCheckShapeAsByteScan wants CheckShape to answer every JSON file
// under testdata and the demo runs, each changed at random 300 times (the hostile ones of megabytes 5)
// (bytes that open, close, quote, escape or separate put in, taken out or
// swapped), and a dozen traps exactly as checkShapeBefore, the scan that
// stepped through every byte with its string state, does: nil, or the same
// problem at the same path.
func TestCheckShapeAsByteScan(t *testing.T) {
	var docs [][]byte
	for _, root := range []string{"../../../testdata", "../../demo/runs"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			b, err := os.ReadFile(path)
			docs = append(docs, b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(docs) < 20 {
		t.Fatalf("%d documents found, want the JSON files of testdata", len(docs))
	}
	for _, trap := range []string{`{"a": "x\"", "a": 1}`, `{"a\\": 1, "a\\": 2}`, `{"a": "\\"}`, `"\`, `{"a`,
		`{"a": 1, "b": [1, 2, {"a": 3}], "a": 4}`, `{"a": 1 "a": 2}`, `]]}{"a": 1, "a": 1}`, `{"a":"}","a":1}`,
		`[{"k": 1}, {"k": 2}]`, `{"x": {"y": 1, "y": 2}}`, `{"\u0061": 1, "a": 2}`, keys(40, "k39")} {
		docs = append(docs, []byte(trap))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "\"\\{}[],: a1"
	var differ int
	for _, doc := range docs {
		rounds := 301
		if len(doc) > 200_000 { // the hostile files of megabytes: a few changes each
			rounds = 6
		}
		for round := range rounds {
			d := doc
			if round > 0 {
				d = mutate(rng, doc, alphabet)
			}
			got, want := outcome(CheckShape(d)), outcome(checkShapeBefore(d))
			if got != want {
				if differ++; differ <= 5 {
					t.Errorf("CheckShape(%.80q…) = %s, the byte scan %s", d, got, want)
				}
			}
		}
	}
}

// mutate is doc with a few bytes put in, taken out or replaced.
func mutate(rng *rand.Rand, doc []byte, alphabet string) []byte {
	d := append([]byte(nil), doc...)
	for range 1 + rng.IntN(4) {
		if len(d) == 0 {
			break
		}
		i, c := rng.IntN(len(d)), alphabet[rng.IntN(len(alphabet))]
		switch rng.IntN(3) {
		case 0:
			d = append(d[:i], append([]byte{c}, d[i:]...)...)
		case 1:
			d = append(d[:i], d[i+1:]...)
		default:
			d[i] = c
		}
	}
	return d
}

// outcome is err as its problems' keys and paths, "nil" for none.
func outcome(err error) string {
	if err == nil {
		return "nil"
	}
	pe, ok := problem.As(err)
	if !ok {
		return err.Error()
	}
	var s []string
	for _, p := range pe.Problems {
		s = append(s, fmt.Sprintf("%s at %s", p.Key, p.Path))
	}
	return strings.Join(s, "; ")
}

// checkShapeBefore is CheckShape as it was, one byte at a time with its
// string state, each object's keys in a map of its own (addKeyBefore):
// the reference the faster scan must agree with.
func checkShapeBefore(data []byte) error {
	sh := shape{data: data}
	inString, escaped, strStart := false, false, 0
	for i, b := range data {
		var top *container
		if len(sh.open) > 0 {
			top = &sh.open[len(sh.open)-1]
		}
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
				if top != nil && top.expectKey {
					if err := addKeyBefore(data, top, strStart+1, i); err != nil {
						return err
					}
				}
			}
		case b == '"':
			inString, strStart = true, i
		case b == '[':
			sh.open = append(sh.open, container{start: i, keysFrom: len(sh.keys)})
		case b == '{':
			sh.open = append(sh.open, container{start: i, object: true, expectKey: true, keysFrom: len(sh.keys)})
		case (b == ']' || b == '}') && top != nil:
			sh.keys = sh.keys[:top.keysFrom]
			sh.open = sh.open[:len(sh.open)-1]
		case b == ',' && top != nil && top.object:
			top.expectKey = true
		case b == ',' && top != nil:
			if top.items++; top.items >= MaxArrayItems {
				// Just inside the array is its first item: the path names
				// the array itself.
				at := strings.TrimSuffix(PathAt(data, int64(top.start)+1), "[0]")
				return problem.New(problem.TooLarge, at, "problem.array_long", map[string]any{"Max": MaxArrayItems})
			}
		}
	}
	return nil
}

// addKeyBefore is shape.addKey by a map of every key of c, without the
// shortcuts of addKey's (the keys compared one by one, keyBit).
func addKeyBefore(data []byte, c *container, from, end int) error {
	c.expectKey = false
	if c.many == nil {
		c.many = map[string]bool{}
	}
	key := string(data[from:end])
	if c.many[key] {
		return problem.New(problem.Invalid, PathAt(data, int64(end)), "problem.duplicate_key", map[string]any{"Key": key})
	}
	c.many[key] = true
	return nil
}
