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
		`[]`, `{"results": [{"concurrency": 1}], "metadata": {"version": 7}}`, `{"results": [{"concurrency": 1}]`,
		// The metadata and the prefill map, read by scanDocument too.
		`{"metadata": null}`, `{"metadata": {}}`, `{"metadata": 5}`, `{"metadata": [], "results": []}`,
		`{"metadata": {"version": null, "mode": null, "prefill_only": null, "metrics_available": null, "duration_per_test": null}}`,
		`{"metadata": {"version": "1", "version": null, "engine": "a", "engine": "b", "max_tokens": 1, "max_tokens": 2.5}}`,
		`{"metadata": {"concurrency_levels": [], "context_lengths": null}}`, `{"metadata": {"context_lengths": [1, null]}}`,
		`{"metadata": {"context_lengths": [1, 2], "context_lengths": [3]}}`, `{"metadata": {"Version": "x", "ENGINE": "y"}}`,
		`{"metadata": {"model": "a\"b"}}`, `{"metadata": {"model": 1}}`, `{"metadata": {"prefill_only": "yes"}}`,
		`{"metadata": {"metrics_available": false, "prefill_only": true, "other": {"x": [1, "\u00e9"]}}}`,
		`{"metadata": {"max_tokens": 1e999}}`, `{"metadata": {"max_tokens": -0}}`, `{"metadata": {"timeſtamp": "x"}}`,
		`{"Metadata": {"engine": "x"}}`, `{"metadata": {"engine": "x"}, "METADATA": {"model": "y"}}`,
		`{"metadata": {"engine": "x"}, "metadata": {"model": "y"}}`, `{"meta\u0064ata": {"engine": "x"}}`,
		`{"prefill": null}`, `{"prefill": {}}`, `{"prefill": []}`, `{"prefill": {"8192": null, "x": 5}}`,
		`{"prefill": {"8192": null}}`, `{"prefill": {"1": {"tok_per_sec": 1}, "1": {"samples": 2}}}`,
		`{"prefill": {"1": {"TOK_PER_SEC": 1, "ttft_seconds": null, "method": "m"}}}`, `{"prefill": {"1": {"samples": "1"}}}`,
		`{"Prefill": {"1": {}}}`, `{"prefill": {"a\"b": {}}}`, `{"prefill": {"1": {}}, "prefill": {"2": {}}}`,
		`{"reſults": [{"concurrency": 1}], "results": []}`, `{"summary_table": [1, {"a": null}], "results": []}`,
		`{"event_log": ["a"], "metadata": {"engine": "x"}, "results": [{"concurrency": 1}], "Event_Log": null}`,
		`{"startup_diagnostics": {"uname": "u", "nvidia_smi_query": {"returncode": 1.5}}, "prefill": {"1": {}}}`,
		`{"hardware_run_summary": {"gpu_count": 2}, "metadata": {"engine": "x"}}`} {
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
		for range 40 {
			b := []byte(string(doc))
			for _, key := range []string{`"results"`, `"metadata"`, `"prefill"`, `"engine"`, `"tok_per_sec"`} {
				if i := strings.Index(string(b), key); i >= 0 && rng.IntN(4) == 0 {
					b[i+1+rng.IntN(len(key)-2)] &^= 0x20 // a key matched by case only
				}
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
	f.Add([]byte(`{"metadata": {"version": "0.8.0", "engine": "vllm", "prefill_only": false, "max_tokens": 8192,
		"metrics_available": true, "concurrency_levels": [1, 2], "context_lengths": []}, "event_log": ["x"],
		"prefill": {"8192": {"ttft_seconds": 3.7, "tok_per_sec": 2186.0, "samples": 1, "method": "m"}, "1": null}}`))
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

// TestScanDocumentReadsSamples: the seed run and the tool's sample of
// 0.2.0 are read by scanDocument without encoding/json, and the samples
// of 0.4.18 and 0.7.8, which have startup diagnostics and an event log,
// with encoding/json for those (else the fast path would never
// be taken, and the tests above would compare jsondoc.Decode with itself).
func TestScanDocumentReadsSamples(t *testing.T) {
	for name, rest := range map[string]bool{"../../demo/runs/seed-rtx3060.bench.json": false,
		"../../../testdata/formats/llm-inference-bench/benchmark_results_0.2.0.json":  false,
		"../../../testdata/formats/llm-inference-bench/benchmark_results_0.4.18.json": true,
		"../../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json":  true} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc, ok := scanDocument(b)
		if !ok || sc.rest != rest || sc.read != readMetadata|readPrefill|readResults {
			t.Errorf("%s: read %v, keys %b, rest %v; want keys 111, rest %v", name, ok, sc.read, sc.rest, rest)
		}
	}
}
