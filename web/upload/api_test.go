package upload_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

func TestAPIUploadAndDuplicate(t *testing.T) {
	s := webtest.NewSite(t)
	body := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	resp, out := s.Post(t, "application/json", body)
	if resp.StatusCode != 201 {
		t.Fatalf("first upload = %d %v", resp.StatusCode, out)
	}
	id, _ := out["id"].(string)
	if loc := resp.Header.Get("Location"); loc != s.URL+"/runs/"+id || out["url"] != loc {
		t.Errorf("Location %q url %v id %q", loc, out["url"], id)
	}
	// The client asked for gzip (Go's transport does): the answer, its id
	// and address, comes plain (smallAnswer), a dry run's whole run gzipped.
	if resp.Uncompressed {
		t.Error("an upload's answer of a hundred bytes was gzipped")
	}
	if resp, _ = s.PostTo(t, "/api/v1/runs?dry_run=1", "application/json", body); !resp.Uncompressed {
		t.Errorf("a dry run's answer (%d) was not gzipped", resp.StatusCode)
	}
	// The same document again, gzipped this time: one run, answered 200.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(body)
	_ = zw.Close()
	resp, out = s.Post(t, "application/json", gz.Bytes(), "Content-Encoding: gzip")
	if resp.StatusCode != 200 || out["id"] != id {
		t.Errorf("duplicate upload = %d %v, want 200 with id %s", resp.StatusCode, out, id)
	}
	if got := s.RowCounts(t); !strings.HasPrefix(got, "runs=1 ") {
		t.Errorf("after a duplicate: %s", got)
	}
	// The source comes back byte for byte.
	r, src := s.Get(t, "/runs/"+id+"/source")
	if r.StatusCode != 200 || src != string(body) {
		t.Errorf("source = %d, %d bytes, want the %d uploaded", r.StatusCode, len(src), len(body))
	}
}

func TestAPIMultipartMetadata(t *testing.T) {
	s := webtest.NewSite(t)
	file := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.4.18.json")
	body, ct := webtest.MultipartBody(t, file, "benchmark_results.json", map[string]string{
		"gpu_name": "RTX 4090", "gpu_count": "2", "vram_gb": "24", "engine_version": "0.10.1", "submitter": "alice",
	})
	resp, out := s.Post(t, ct, body)
	if resp.StatusCode != 201 {
		t.Fatalf("multipart upload = %d %v", resp.StatusCode, out)
	}
	_, js := s.Get(t, "/api/v1/runs/"+out["id"].(string))
	var doc struct {
		Submitter struct{ Name string }
		Hardware  struct {
			GPUName  string  `json:"gpu_name"`
			GPUCount int     `json:"gpu_count"`
			VRAMGB   float64 `json:"vram_gb"`
			Driver   string
		}
		Engine struct{ Name, Version string }
	}
	_ = json.Unmarshal([]byte(js), &doc)
	// Fields given win; the file fills the rest (engine name, driver).
	if doc.Hardware.GPUName != "RTX 4090" || doc.Hardware.GPUCount != 2 || doc.Hardware.VRAMGB != 24 ||
		doc.Engine.Version != "0.10.1" || doc.Engine.Name != "vllm" || doc.Hardware.Driver != "570.133.20" || doc.Submitter.Name != "alice" {
		t.Errorf("merged metadata: %+v", doc)
	}
}

// TestAPIRefusals: each bad input gets its 4xx, a message that names the
// problem, and the database holds exactly what it held before.
func TestAPIRefusals(t *testing.T) {
	s := webtest.NewSite(t)
	s.Seed(t)
	before := s.RowCounts(t)
	seed := string(webtest.ReadFile(t, "internal/demo/runs/seed-rtx3060.bench.json"))
	huge := bytes.Repeat([]byte(" "), 20<<20)
	badUTF8 := strings.Replace(seed, `"bench"`, "\"b\xffnch\"", 1)
	xss := strings.Replace(seed, `"model": "bench"`, `"model": "<script>alert(1)</script>"`, 1)
	tests := []struct {
		name, ct string
		body     []byte
		headers  []string
		status   int
		path     string
		words    string // a word the message must contain
	}{
		{"not json", "application/json", []byte("this is not json"), nil, 400, "$", "JSON"},
		{"truncated", "application/json", []byte(seed[:len(seed)/3]), nil, 400, "", "end"},
		{"another tool", "application/json", []byte(`{"date":"20250101","endpoint_type":"openai","backend":"vllm","max_concurrency":8,"request_throughput":3.2}`), nil, 422, "$", "vLLM"},
		{"empty grid", "application/json", []byte(`{"metadata":{"version":"0.7.8","concurrency_levels":[],"context_lengths":[]},"prefill":{},"results":[]}`), nil, 422, "$", "grid"},
		{"negative throughput", "application/json", []byte(strings.Replace(seed, `"aggregate_tps": 63.5`, `"aggregate_tps": -63.5`, 1)), nil, 422, "$.results[0].aggregate_tps", "-63.5"},
		{"NaN", "application/json", []byte(strings.Replace(seed, `"aggregate_tps": 63.5`, `"aggregate_tps": NaN`, 1)), nil, 422, "$.results[0].aggregate_tps", "NaN"},
		{"Infinity", "application/json", []byte(strings.Replace(seed, `"ttft_p50": 0.096`, `"ttft_p50": Infinity`, 1)), nil, 422, "$.results[0].ttft_p50", "Infinity"},
		{"20 MB body", "application/json", huge, nil, 413, "$", "16"},
		{"duplicate cells", "application/json", []byte(strings.Replace(seed, `"concurrency": 2,`, `"concurrency": 1,`, 1)), nil, 422, "$.results[1]", "$.results[0]"},
		{"invalid UTF-8", "application/json", []byte(badUTF8), nil, 400, "$.metadata.model", "UTF-8"},
		{"gzip that does not inflate", "application/json", []byte("\x1f\x8b\x08\x00garbage"), []string{"Content-Encoding: gzip"}, 400, "$", "gzip"},
		{"unsupported media type", "text/plain", []byte(seed), nil, 415, "Content-Type", "text/plain"},
		{"unsupported encoding", "application/json", []byte(seed), []string{"Content-Encoding: br"}, 415, "Content-Encoding", "br"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, out := s.Post(t, tt.ct, tt.body, tt.headers...)
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %v", resp.StatusCode, tt.status, out)
			}
			probs, _ := out["problems"].([]any)
			if len(probs) == 0 {
				t.Fatalf("no problems listed: %v", out)
			}
			p := probs[0].(map[string]any)
			msg, _ := p["message"].(string)
			if (tt.path != "" && p["path"] != tt.path) || !strings.Contains(msg+" "+out["error"].(string), tt.words) {
				t.Errorf("problem %v (error %q), want path %s and a message naming %q", p, out["error"], tt.path, tt.words)
			}
			if strings.HasPrefix(msg, "problem.") {
				t.Errorf("message is a raw id: %s", msg)
			}
			if after := s.RowCounts(t); after != before {
				t.Errorf("database changed: %s → %s", before, after)
			}
		})
	}
	// A <script> model name is stored as text and shown escaped.
	resp, out := s.Post(t, "application/json", []byte(xss))
	if resp.StatusCode != 201 {
		t.Fatalf("xss upload = %d %v", resp.StatusCode, out)
	}
	_, page := s.Get(t, "/runs/"+out["id"].(string))
	if strings.Contains(page, "<script>alert(1)</script>") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("model name not escaped on the page")
	}
}

// TestAPIEverySample: every sample upload in testdata/formats imports.
func TestAPIEverySample(t *testing.T) {
	s := webtest.NewSite(t)
	for _, name := range []string{
		"llm-inference-bench/benchmark_results_0.2.0.json", "llm-inference-bench/benchmark_results_0.4.18.json",
		"llm-inference-bench/benchmark_results_0.7.8.json", "lil-bench/lil_bench_result_1gpu.json", "lil-bench/lil_bench_result_2gpu.json",
	} {
		resp, out := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/"+name))
		if resp.StatusCode != 201 {
			t.Errorf("%s = %d %v", name, resp.StatusCode, out)
			continue
		}
		if r, _ := s.Get(t, "/runs/"+out["id"].(string)); r.StatusCode != 200 {
			t.Errorf("%s: report = %d", name, r.StatusCode)
		}
	}
	// The fragment of failed and looped cells is not a whole file: refused,
	// with the reason.
	resp, out := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/llm-inference-bench/invalid_cells_0.7.8_fragment.json"))
	if resp.StatusCode != 422 {
		t.Errorf("fragment = %d %v, want 422", resp.StatusCode, out)
	}
}
