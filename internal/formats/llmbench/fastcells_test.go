package llmbench

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
)

// documents are every JSON document of the repository's samples and demo
// runs: those of this format and others, whose keys and values it meets in
// a lil-bench file or a wrong upload.
func documents(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, dir := range []string{"../../../testdata", "../../demo/runs"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			b, err := os.ReadFile(path)
			out[path] = b
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 40 {
		t.Fatalf("%d documents found", len(out))
	}
	return out
}

// checkCells wants readCells to read b as encoding/json reads it into
// []cellRec whenever it reads it at all, and says whether it did.
func checkCells(t *testing.T, name string, b []byte) bool {
	t.Helper()
	got, ok := readCells(b)
	if !ok {
		return false
	}
	var want []cellRec
	if len(b) > 0 {
		if err := json.Unmarshal(b, &want); err != nil {
			t.Errorf("%s: read %d cells where encoding/json refuses (%v):\n%.300s", name, len(got), err, b)
			return true
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: read\n%+v\nencoding/json\n%+v\nof\n%.300s", name, got, want, b)
	}
	return true
}

// TestReadCellsAsEncodingJSON: the results of every sample, the same bytes
// changed at random, and documents of the traps read alike by readCells
// and encoding/json, or not by readCells at all; the tool's own files are
// read (else the fast path would never be taken).
func TestReadCellsAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	read := 0
	for name, doc := range documents(t) {
		var d struct {
			Results json.RawMessage `json:"results"`
		}
		if json.Unmarshal(doc, &d) != nil || len(d.Results) == 0 {
			continue
		}
		if checkCells(t, name, d.Results) {
			read++
		}
		for range 200 {
			b := []byte(string(d.Results))
			for range 1 + rng.IntN(3) {
				const alphabet = ` {}[],:"\-.0159eE+truefalsnl_Kk`
				b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
			}
			checkCells(t, name+" (changed)", b)
		}
	}
	if read < 5 {
		t.Errorf("readCells read the results of %d documents, want the tool's samples", read)
	}
	reads := map[string]bool{
		``: true, `null`: true, ` [ ] `: true, `[null, {}]`: true,
		`[{"concurrency": 1, "concurrency": 2.5, "ttft_p50": null, "aggregate_tps": -0}]`:   true,
		`[{"ttft_p50": 1, "ttft_p50": null, "loop_detected": true, "loop_detected": null}]`: true,
		`[{"aggregate_tps": 1e3, "total_tokens": 0.5E-2, "num_completed": -12.25e+1}]`:      true,
		`[{"failure_reason": "ünïcode ✓", "extra": "x", "n": 1, "b": false, "z": null}]`:    true,
		"[\n\t{\r\n\"queue_fraction\" : 0.25 }\n]":                                          true,
		`[{"Concurrency": 1}]`: false, `[{"CONCURRENCY": 1}]`: false, `[{"ﬁ": 1}]`: false,
		`[{"failure_reason": "a\"b"}]`: false, `[{"concurrency": "1"}]`: false,
		`[{"concurrency": 1e400}]`: false, `[{"loop_detected": 1}]`: false,
		`[{"x": [1, {"a": [], "b\u00e9\n": "\"q\" \\"}], "y": {}, "z": "\ud83d"}]`: true,
		`[{"x": [1,]}]`: false, `[{"x": {"a" 1}}]`: false, `[{"x": "\x"}]`: false, `[{"x": "\u12g4"}]`: false,
		`[{"x": [1e400]}]`: false, `[{"concurrency": 01}]`: false, `[{"concurrency": 1.}]`: false,
		`[{"concurrency": .5}]`: false, `[{"concurrency": +1}]`: false, `[{"concurrency": 1}`: false,
		`[{"concurrency": 1},]`: false, `[{"concurrency": 1}] x`: false, `{}`: false, `[1]`: false,
		`[{"a": nul}]`: false, `[{"a": truex}]`: false, `[{"failure_reason": "a` + "\t" + `"}]`: false,
	}
	for doc, want := range reads {
		if got := checkCells(t, doc, []byte(doc)); got != want {
			t.Errorf("%q: read %v, want %v", doc, got, want)
		}
	}
}

// TestDecodeDocumentAsJSONDoc: every document, each changed at random
// (bad syntax, wrong types, keys by case), and documents of the traps
// (results repeated, one of them wrong; results by case; null; none)
// decode to the same records or the same problem as jsondoc.Decode gives.
func TestDecodeDocumentAsJSONDoc(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	docs := documents(t)
	for i, doc := range []string{`{"results": 5, "results": []}`, `{"results": [], "results": 5}`,
		`{"Results": [], "results": [{"concurrency": "x"}]}`, `{"results": [{"concurrency": 1}], "RESULTS": null}`,
		`{"results": null}`, `{"Results": [{"ttft_p50": 2}]}`, `{"results": [{"concurrency": 1e999}]}`, `{}`, `null`,
		`[]`, `{"results": [{"concurrency": 1}], "metadata": {"version": 7}}`, `{"results": [{"concurrency": 1}]`} {
		docs[fmt.Sprintf("trap %d", i)] = []byte(doc)
	}
	for name, doc := range docs {
		same := func(label string, b []byte) {
			var got, want document
			gerr, werr := decodeDocument(b, &got), jsondoc.Decode(b, &want)
			if !reflect.DeepEqual(gerr, werr) {
				t.Errorf("%s: error %v, want %v", label, gerr, werr)
			}
			if gerr == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("%s: decoded\n%+v\nwant\n%+v", label, got, want)
			}
		}
		same(name, doc)
		if len(doc) == 0 || len(doc) > 64<<10 {
			continue // the large ones only whole: each decode of them is slow
		}
		for range 20 {
			b := []byte(string(doc))
			if i := strings.Index(string(b), `"results"`); i >= 0 && rng.IntN(2) == 0 {
				b[i+1+rng.IntN(7)] &^= 0x20 // a results key matched by case only
			}
			const alphabet = ` {}[],:"1.eE-tn`
			b[rng.IntN(len(b))] = alphabet[rng.IntN(len(alphabet))]
			same(name+" (changed)", b)
		}
	}
}

// FuzzDecodeDocument is TestDecodeDocumentAsJSONDoc's property for any
// bytes: decodeDocument answers as jsondoc.Decode does. Plain `go test`
// runs the seeds only.
func FuzzDecodeDocument(f *testing.F) {
	// The small samples: the fuzzer mutates a 100 KB seed very slowly.
	for _, name := range []string{"benchmark_results_0.2.0.json", "invalid_cells_0.7.8_fragment.json"} {
		b, err := os.ReadFile(filepath.Join("../../../testdata/formats/llm-inference-bench", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"results": [{"concurrency": 1, "x": [{"y": "\u00e9"}]}, null], "metadata": {}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var got, want document
		gerr, werr := decodeDocument(data, &got), jsondoc.Decode(data, &want)
		if !reflect.DeepEqual(gerr, werr) {
			t.Fatalf("error %v, want %v", gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded\n%+v\nwant\n%+v", got, want)
		}
	})
}

// TestNumberAsParseFloat wants cellScanner.number to give
// strconv.ParseFloat's float64, bit for bit (the sign of zero too), for
// random JSON numbers of up to 18 digits with and without a fraction or an
// exponent: those of at most 15 digits without an exponent it computes
// itself.
func TestNumberAsParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(b []byte) {
		t.Helper()
		want, err := strconv.ParseFloat(string(b), 64)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		s := cellScanner{b: b}
		got, ok := s.number()
		if !ok || s.i != len(b) || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%s: %v (%x, %v), ParseFloat %v (%x)", b, got, math.Float64bits(got), ok, want, math.Float64bits(want))
		}
	}
	for range 200000 {
		var b []byte
		if rng.IntN(3) == 0 {
			b = append(b, '-')
		}
		if rng.IntN(4) == 0 {
			b = append(b, '0')
		} else {
			b = append(b, byte('1'+rng.IntN(9)))
			for range rng.IntN(10) {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(4) > 0 {
			b = append(b, '.')
			for range 1 + rng.IntN(8) {
				b = append(b, byte('0'+rng.IntN(10)))
			}
		}
		if rng.IntN(20) == 0 {
			b = fmt.Appendf(b, "e%d", rng.IntN(40)-20)
		}
		check(b)
	}
	for _, s := range []string{"-0", "-0.0", "0", "0.1", "0.3", "123456789012345", "1.00000000000001", "999999999999999",
		"9999999999999999", "0.000000000000001", "1234567890123456789012", "2.5e-3", "1E2"} {
		check([]byte(s))
	}
}
