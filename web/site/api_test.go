package site_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// post sends body to the API and decodes the JSON answer.
func (s *testSite) post(t testing.TB, contentType string, body []byte, headers ...string) (*http.Response, map[string]any) {
	t.Helper()
	return s.postTo(t, "/api/v1/runs", contentType, body, headers...)
}

// postTo is post to another address (a query, another door).
func (s *testSite) postTo(t testing.TB, path, contentType string, body []byte, headers ...string) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL+path, bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("answer is not JSON (%d): %s", resp.StatusCode, raw)
	}
	return resp, out
}

// rowCounts counts every table, to prove a refused upload stored nothing.
func (s *testSite) rowCounts(t testing.TB) string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), s.url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var out []string
	for _, table := range []string{"runs", "run_sources", "decode_cells", "prefill_rows"} {
		var n int
		if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s=%d", table, n))
	}
	return strings.Join(out, " ")
}

func multipartBody(t testing.TB, file []byte, filename string, fields map[string]string) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("file", filename)
		_, _ = fw.Write(file)
	}
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

func TestAPIUploadAndDuplicate(t *testing.T) {
	s := newSite(t)
	body := readFile(t, "../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	resp, out := s.post(t, "application/json", body)
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
	if resp, _ = s.postTo(t, "/api/v1/runs?dry_run=1", "application/json", body); !resp.Uncompressed {
		t.Errorf("a dry run's answer (%d) was not gzipped", resp.StatusCode)
	}
	// The same document again, gzipped this time: one run, answered 200.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(body)
	_ = zw.Close()
	resp, out = s.post(t, "application/json", gz.Bytes(), "Content-Encoding: gzip")
	if resp.StatusCode != 200 || out["id"] != id {
		t.Errorf("duplicate upload = %d %v, want 200 with id %s", resp.StatusCode, out, id)
	}
	if got := s.rowCounts(t); !strings.HasPrefix(got, "runs=1 ") {
		t.Errorf("after a duplicate: %s", got)
	}
	// The source comes back byte for byte.
	r, src := s.get(t, "/runs/"+id+"/source")
	if r.StatusCode != 200 || src != string(body) {
		t.Errorf("source = %d, %d bytes, want the %d uploaded", r.StatusCode, len(src), len(body))
	}
}

func TestAPIMultipartMetadata(t *testing.T) {
	s := newSite(t)
	file := readFile(t, "../../testdata/formats/llm-inference-bench/benchmark_results_0.4.18.json")
	body, ct := multipartBody(t, file, "benchmark_results.json", map[string]string{
		"gpu_name": "RTX 4090", "gpu_count": "2", "vram_gb": "24", "engine_version": "0.10.1", "submitter": "alice",
	})
	resp, out := s.post(t, ct, body)
	if resp.StatusCode != 201 {
		t.Fatalf("multipart upload = %d %v", resp.StatusCode, out)
	}
	_, js := s.get(t, "/api/v1/runs/"+out["id"].(string))
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
	s := newSite(t)
	s.seed(t)
	before := s.rowCounts(t)
	seed := string(readFile(t, "../../internal/demo/runs/seed-rtx3060.bench.json"))
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
			resp, out := s.post(t, tt.ct, tt.body, tt.headers...)
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
			if after := s.rowCounts(t); after != before {
				t.Errorf("database changed: %s → %s", before, after)
			}
		})
	}
	// A <script> model name is stored as text and shown escaped.
	resp, out := s.post(t, "application/json", []byte(xss))
	if resp.StatusCode != 201 {
		t.Fatalf("xss upload = %d %v", resp.StatusCode, out)
	}
	_, page := s.get(t, "/runs/"+out["id"].(string))
	if strings.Contains(page, "<script>alert(1)</script>") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("model name not escaped on the page")
	}
}

// TestAPIEverySample: every sample upload in testdata/formats imports.
func TestAPIEverySample(t *testing.T) {
	s := newSite(t)
	for _, name := range []string{
		"llm-inference-bench/benchmark_results_0.2.0.json", "llm-inference-bench/benchmark_results_0.4.18.json",
		"llm-inference-bench/benchmark_results_0.7.8.json", "lil-bench/lil_bench_result_1gpu.json", "lil-bench/lil_bench_result_2gpu.json",
	} {
		resp, out := s.post(t, "application/json", readFile(t, "../../testdata/formats/"+name))
		if resp.StatusCode != 201 {
			t.Errorf("%s = %d %v", name, resp.StatusCode, out)
			continue
		}
		if r, _ := s.get(t, "/runs/"+out["id"].(string)); r.StatusCode != 200 {
			t.Errorf("%s: report = %d", name, r.StatusCode)
		}
	}
	// The fragment of failed and looped cells is not a whole file: refused,
	// with the reason.
	resp, out := s.post(t, "application/json", readFile(t, "../../testdata/formats/llm-inference-bench/invalid_cells_0.7.8_fragment.json"))
	if resp.StatusCode != 422 {
		t.Errorf("fragment = %d %v, want 422", resp.StatusCode, out)
	}
}
