package ingest

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

func seedUpload(t testing.TB) Upload {
	t.Helper()
	body, err := os.ReadFile("../demo/runs/seed-rtx3060.bench.json")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../demo/runs/seed-rtx3060.meta.json")
	if err != nil {
		t.Fatal(err)
	}
	fields, err := FieldsFromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	return Upload{Files: []archive.File{{Name: "benchmark_results.json", Data: body}}, Fields: fields}
}

var statusLabel = map[string]run.Status{"Valid": run.Valid, "Requests queued": run.Queued, "Over capacity": run.OverCapacity}

// TestSeedStatuses checks the status of each of the seed page's 48 decode
// cells, typed from the page, against the derived run.
func TestSeedStatuses(t *testing.T) {
	r, _, err := Prepare(seedUpload(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("../../testdata/seed/all-measurements.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]run.Status{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) == 12 && cols[0] == "Sustained decode" {
			want[cols[1]+"×"+cols[2]] = statusLabel[cols[3]]
		}
	}
	if len(want) != 48 || len(r.Decode) != 48 {
		t.Fatalf("%d typed cells, %d derived; want 48 each", len(want), len(r.Decode))
	}
	for _, c := range r.Decode {
		k := label(c.Context) + "×" + itoa(c.Concurrency)
		if want[k] != c.Status {
			t.Errorf("cell %s = %s (%s), seed page says %s", k, c.Status, c.Reason, want[k])
		}
	}
	if len(r.Prefill) != 5 {
		t.Errorf("%d prefill rows, want 5", len(r.Prefill))
	}
	if r.Hardware.GPUName != "RTX 3060" || r.Engine.Quantization != "FP8 dynamic" || r.Model.ID != "RedHatAI/Qwen3.5-4B-FP8-dynamic" {
		t.Errorf("metadata not merged: %+v %+v %+v", r.Hardware, r.Engine, r.Model)
	}
}

// TestSeedKVBudgetRange checks a claim about the seed run: under the tool's own skip
// rule, any KV budget from 278,528 to 294,911 tokens reproduces every skip
// of the seed page — the rule skips exactly the cells the page shows as not
// run — and the budgets just outside do not.
func TestSeedKVBudgetRange(t *testing.T) {
	r, _, err := Prepare(seedUpload(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		budget     int64
		consistent bool
	}{{278528, true}, {294911, true}, {286720, true}, {278527, false}, {294912, false}} {
		s := r.Settings
		s.KVBudgetTokens = tc.budget
		consistent := true
		for _, c := range r.Decode {
			if status.ExceedsKV(c.Context, c.Concurrency, &s) == c.Measured {
				consistent = false
			}
		}
		if consistent != tc.consistent {
			t.Errorf("budget %d reproduces the page's skips = %v, want %v", tc.budget, consistent, tc.consistent)
		}
	}
}

func label(ctx int) string {
	if ctx == 0 {
		return "0"
	}
	return itoa(ctx/1024) + "K"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestExportRoundTrip: a run's export, uploaded again, derives the same run.
func TestExportRoundTrip(t *testing.T) {
	for _, name := range []string{"llm-inference-bench/benchmark_results_0.7.8.json", "lil-bench/lil_bench_result_2gpu.json", "seed"} {
		t.Run(name, func(t *testing.T) {
			u := seedUpload(t)
			if name != "seed" {
				body, err := os.ReadFile("../../testdata/formats/" + name)
				if err != nil {
					t.Fatal(err)
				}
				u = Upload{Files: []archive.File{{Data: body}}}
			}
			first, key, err := Prepare(u, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			first.ID = "abc"
			doc, err := export.Encode(first, "http://x")
			if err != nil {
				t.Fatal(err)
			}
			second, key2, err := Prepare(Upload{Files: []archive.File{{Data: doc}}}, time.Now())
			if err != nil {
				t.Fatalf("re-import: %v", err)
			}
			if key2 != key && !strings.HasPrefix(key, "lil-bench:") {
				t.Errorf("dedupe key %q, want the original %q", key2, key)
			}
			a, _ := json.Marshal(comparable(first))
			b, _ := json.Marshal(comparable(second))
			if string(a) != string(b) {
				t.Errorf("round trip differs:\n%s\n%s", a, b)
			}
		})
	}
}

func comparable(r *run.Run) any {
	return []any{r.Submitter, r.Provenance, r.Tool, r.Hardware, r.Engine, r.Model, r.Settings, r.Prefill, r.Decode, r.MeasuredAt}
}

func TestRefusals(t *testing.T) {
	seed := string(seedUpload(t).Files[0].Data)
	tests := []struct {
		name, body, key string
		kind            problem.Kind
		path            string
	}{
		{"not json", "hello", "problem.syntax", problem.Malformed, "$"},
		{"truncated", seed[:len(seed)/2], "problem.truncated", problem.Malformed, ""},
		{"another tool", `{"date":"x","endpoint_type":"openai","backend":"vllm","max_concurrency":4}`, "problem.formats.no_decode", problem.Invalid, "$"},
		{"a tool not read", `{"benchmarks":[{"id":1}]}`, "problem.other_tool", problem.Invalid, "$"},
		{"empty grid", `{"metadata":{"version":"0.7.8","concurrency_levels":[],"context_lengths":[]},"prefill":{},"results":[]}`, "problem.empty_grid", problem.Invalid, "$"},
		{"negative throughput", strings.Replace(seed, `"aggregate_tps": 63.5`, `"aggregate_tps": -63.5`, 1), "problem.negative", problem.Invalid, "$.results[0].aggregate_tps"},
		{"nan", strings.Replace(seed, `"aggregate_tps": 63.5`, `"aggregate_tps": NaN`, 1), "problem.nonfinite", problem.Invalid, "$.results[0].aggregate_tps"},
		{"infinity", strings.Replace(seed, `"ttft_p50": 0.096`, `"ttft_p50": Infinity`, 1), "problem.nonfinite", problem.Invalid, "$.results[0].ttft_p50"},
		{"duplicate cell", strings.Replace(seed, `"concurrency": 2,`, `"concurrency": 1,`, 1), "problem.duplicate_cell", problem.Invalid, "$.results[1]"},
		{"invalid utf-8", strings.Replace(seed, `"bench"`, "\"b\xffnch\"", 1), "problem.utf8", problem.Malformed, "$.metadata.model"},
		{"throughput beyond any machine", strings.Replace(seed, `"aggregate_tps": 63.5`, `"aggregate_tps": 1e308`, 1), "problem.beyond_limit", problem.Invalid, "$.results[0].total_tps"},
		{"ttft beyond a day", strings.Replace(seed, `"ttft_p50": 0.096`, `"ttft_p50": 200000`, 1), "problem.beyond_limit", problem.Invalid, "$.results[0].ttft_ms"},
		{"grid too large", `{"metadata":{"version":"0.7.8","concurrency_levels":[1],"context_lengths":[` + seq(65) + `]},"results":[]}`, "problem.too_many_contexts", problem.Invalid, "$"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Prepare(Upload{Files: []archive.File{{Data: []byte(tt.body)}}}, time.Now())
			pe, ok := problem.As(err)
			if !ok {
				t.Fatalf("Prepare = %v, want a refusal", err)
			}
			p := pe.Problems[0]
			if p.Key != tt.key || pe.Kind != tt.kind || (tt.path != "" && p.Path != tt.path) {
				t.Errorf("got %s at %s (kind %d), want %s at %s (kind %d)", p.Key, p.Path, pe.Kind, tt.key, tt.path, tt.kind)
			}
		})
	}
}

func seq(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = itoa(i * 1024)
	}
	return strings.Join(parts, ",")
}

func TestParseMetaProblems(t *testing.T) {
	vals := map[string]string{"gpu_count": "two", "vram_gb": "-3", "hardware_type": "toaster", "gpu_name": "RTX\n3060", "model_id": "<script>alert(1)</script>"}
	m, err := ParseMeta(func(k string) string { return vals[k] })
	pe, ok := problem.As(err)
	if !ok {
		t.Fatalf("ParseMeta = %v", err)
	}
	got := map[string]string{}
	for _, p := range pe.Problems {
		got[p.Path] = p.Key
	}
	want := map[string]string{"gpu_count": "problem.field_int", "vram_gb": "problem.field_number", "hardware_type": "problem.field_enum", "gpu_name": "problem.field_newline"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("field %s: %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("problems %v, want exactly %v", got, want)
	}
	if m.Model.ID != "<script>alert(1)</script>" {
		t.Errorf("model id %q: text is stored as typed and escaped when shown", m.Model.ID)
	}
}

// TestPrepareKeyAsDedupeKey checks that the key Prepare gives, from the
// source hash it computes once, is formats.DedupeKey's for the same bytes:
// for a document without a key of its own (the hash), and for two with
// one (lil-bench's run id; an export's, the hash of the document it was
// made from), and that the run's source hash is the bytes' SHA-256.
func TestPrepareKeyAsDedupeKey(t *testing.T) {
	lil, err := os.ReadFile("../../testdata/formats/lil-bench/lil_bench_result_1gpu.json")
	if err != nil {
		t.Fatal(err)
	}
	seed, _, err := Prepare(seedUpload(t), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	seed.ID = "abc"
	exported, err := export.Encode(seed, "http://x")
	if err != nil {
		t.Fatal(err)
	}
	for name, u := range map[string]Upload{
		"bench":  seedUpload(t),
		"lil":    {Files: []archive.File{{Name: "lil_bench_result.json", Data: lil}}},
		"export": {Files: []archive.File{{Data: exported}}},
	} {
		r, key, source, err := prepare(u, time.Now())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p, err := formats.Parse(source)
		if err != nil {
			t.Fatalf("%s: the source does not parse: %v", name, err)
		}
		if want := formats.DedupeKey(p, source); key != want {
			t.Errorf("%s: key %q, formats.DedupeKey %q", name, key, want)
		}
		if r.Source.SHA256 != formats.SHA256(source) {
			t.Errorf("%s: source hash %q, want the bytes' %q", name, r.Source.SHA256, formats.SHA256(source))
		}
		if own := key != export.DedupeKeyPrefix+r.Source.SHA256; own != (name != "bench") {
			t.Errorf("%s: key %q against the source hash %q", name, key, r.Source.SHA256)
		}
	}
}
