package formats

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// trickyTops are documents whose top-level keys a careless scan would get
// wrong, and near-JSON that encoding/json refuses.
var trickyTops = []string{
	`{"metadata":{"schema":"x","results":[]},"prefill":{}}`,
	`{"a\"}":"{\"schema\":1}","schema":"lil-bench-result/1"}`,
	`{"sch\u0065ma":"speedmatrix-run/1","\\":"\\\"","\/":"}"}`,
	`{"schema":"a","schema":"b"}`,
	" \t\r\n{ \"a\" : 1 , \"b\":[ ] ,\"c\" :{ } }\n ",
	`{"s":"{[\"]}","t":"]]]}}}","u":[{"v":"}"},["{"]]}`,
	`null`, ` null `, `nul`, `nullnull`, `null{}`, `{}`, `{ }`, `[]`, `[{"a":1}]`, `"s"`, `1`, `true`, ``, `   `,
	`{"a":1}{"b":2}`, "{\"a\":1}\n{\"b\":2}\n", `{"a":1} x`,
	`{"a":NaN}`, `{"a":Infinity}`, `{"a":-Infinity}`, `{"a":[1,NaN]}`,
	`{"a":-0}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`, `{"a":1E-5}`, `{"a":-}`, `{"a":-01}`,
	`{"a":1.5e10}`, `{"a":+1}`, `{"a":0.0e0}`, `{"a":1e400}`, `{"a":[0,-0.5,12345678901234567890]}`,
	"{\"a\":\"\x01\"}", "{\"a\":\"\t\"}", `{"a":"\u00e9"}`, `{"a":"\u00g9"}`, `{"a":"\u00e"}`, `{"a":"\q"}`,
	`{"a":"\/\b\f\n\r\t\"\\"}`, `{"a":"\ud800"}`, `{"a\u0000":1}`, `{"\ud83d\ude00":1}`,
	`{"a":1,}`, `{,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`,
	`{"a":{"b":1,}}`, `{"a":{"b"}}`, `{"a":{1:2}}`, `{"a":{"b":1}`, `{"a":[}`, `{"a":{]}`, `{a:1}`, `{'a':1}`,
	`{"a":tru}`, `{"a":truee}`, `{"a":nul}`, `{"a":false,"b":true,"c":null}`, `{"a":True}`,
	`{"a":"b`, `{"a":[1,2`, `{`, `{"a":1`, `{"a"`, `{"a":"b"}}`, `{"a":"b"}]`,
	"\xef\xbb\xbf{}", "\xef\xbb\xbf" + `{"schema":"speedmatrix-run/1"}`,
	"{\"a\":1}\x00", "{\"a\":\u00a01}", "{\"a\":1\f}",
	nested(maxDepth - 1), nested(maxDepth), nested(maxDepth - 2), objectsNested(maxDepth - 1), objectsNested(maxDepth),
}

// nested is an object whose value holds n arrays one in another: n+1
// levels of nesting in all.
func nested(n int) string {
	return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
}

// objectsNested is the same with objects and, innermost, a key.
func objectsNested(n int) string {
	return `{"a":` + strings.Repeat(`{"b":`, n) + `1` + strings.Repeat("}", n) + `}`
}

// TestTopKeysAgreeWithDecode checks the byte scan that tells formats apart
// against the decode it stands for, json.Unmarshal into a map of raw
// values: on every sample of testdata (ours, the other tools', the hostile
// and the regression files, the demo's runs), every cut of them short, bytes
// of them changed and the tricky documents above, the scan succeeds where
// the decode does, and then finds the same values under the same keys.
func TestTopKeysAgreeWithDecode(t *testing.T) {
	for _, doc := range trickyTops {
		agreeWithDecode(t, "tricky "+short(doc), []byte(doc))
	}
	samples := samplesOf(t, "../../testdata", "../demo/runs")
	if len(samples) < 40 {
		t.Fatalf("%d samples found, want the forty-odd JSON files of testdata", len(samples))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for name, data := range samples {
		if !agreeWithDecode(t, name, data) {
			continue
		}
		variants := 64 // fewer of the hostile megabytes: each is decoded whole
		if len(data) > 64<<10 {
			variants = 8
		}
		for _, at := range cuts(len(data), variants, rng) {
			agreeWithDecode(t, name+" cut", data[:at])
		}
		for range variants {
			changed := bytes.Clone(data)
			changed[rng.IntN(len(data))] = `{}[]":,\ 0-.eEtfnu`[rng.IntN(18)]
			agreeWithDecode(t, name+" changed", changed)
		}
	}
}

// agreeWithDecode fails t unless topKeys and the decode agree on data; it
// reports whether the decode succeeded.
func agreeWithDecode(t *testing.T, name string, data []byte) bool {
	t.Helper()
	var want map[string]json.RawMessage
	decoded := json.Unmarshal(data, &want) == nil
	top, ok := topKeys(data)
	if ok != decoded {
		t.Errorf("%s: topKeys ok = %v, decoding into a map succeeds = %v", name, ok, decoded)
		return decoded
	}
	for k, v := range want {
		if got := top.get(k); !bytes.Equal(got, v) {
			t.Errorf("%s: key %q: topKeys has %.80q, the decode %.80q", name, k, got, v)
		}
	}
	for _, k := range top {
		var key string
		if json.Unmarshal(append(append([]byte{'"'}, k.name...), '"'), &key) != nil || want[key] == nil {
			t.Errorf("%s: topKeys found key %q, the decode did not", name, k.name)
		}
	}
	return decoded
}

// samplesOf reads every file under dirs that Parse would hand to
// detection: not an archive, UTF-8.
func samplesOf(t *testing.T, dirs ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if len(data) > 0 && archive.Detect(data) == archive.None && utf8.Valid(data) && len(data) < 4<<20 {
				out[path] = data
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// cuts are the lengths to cut a document of n bytes to: the first and
// last few, and more between.
func cuts(n, few int, rng *rand.Rand) []int {
	var out []int
	for i := 0; i < n && i < few; i++ {
		out = append(out, i, n-1-i)
	}
	for range 2 * few {
		out = append(out, rng.IntN(n))
	}
	return out
}

func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// FuzzTopKeys is TestTopKeysAgreeWithDecode's property on any input.
func FuzzTopKeys(f *testing.F) {
	for _, doc := range trickyTops[:len(trickyTops)-5] { // the deep ones are too big to mutate
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if utf8.Valid(data) {
			agreeWithDecode(t, "input", data)
		}
	})
}

// TestParseRefusesLikeTheDecoder checks that bad documents of our format
// still get the strict decoder's problem, as before the scan: a byte-order
// mark, the seed document cut short, a syntax error in it, NaN in it.
func TestParseRefusesLikeTheDecoder(t *testing.T) {
	seed, err := os.ReadFile("../demo/runs/seed-rtx3060.bench.json")
	if err != nil {
		t.Fatal(err)
	}
	first := regexp.MustCompile(`"aggregate_tps": [0-9.]+`).FindIndex(seed)
	for name, c := range map[string]struct {
		data []byte
		key  string
	}{
		"bom":       {append([]byte("\xef\xbb\xbf"), seed...), "problem.bom"},
		"truncated": {seed[:len(seed)/2], "problem.truncated"},
		"syntax":    {slices.Concat(seed[:first[0]], []byte(`"aggregate_tps" 1`), seed[first[1]:]), "problem.syntax"},
		"nan":       {slices.Concat(seed[:first[0]], []byte(`"aggregate_tps": NaN`), seed[first[1]:]), "problem.nonfinite"},
	} {
		_, err := Parse(c.data)
		var v any
		want := jsondoc.Decode(c.data, &v)
		if p, ok := problem.As(err); !ok || p.Problems[0].Key != c.key || !reflect.DeepEqual(err, want) {
			t.Errorf("%s: Parse = %v, want %v, a problem %s", name, err, want, c.key)
		}
	}
}
