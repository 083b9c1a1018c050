package web_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

func (s *site) postForm(t *testing.T, body []byte, contentType string, headers ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", s.URL+"/upload", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	client := *s.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(resp.Body)
	return resp, buf.String()
}

func TestUploadFormSuccess(t *testing.T) {
	s := newSite(t)
	file := readFile(t, "../testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	body, ct := multipartBody(t, file, "run.json", map[string]string{"quantization": "FP8"})
	resp, _ := s.postForm(t, body, ct, "Sec-Fetch-Site: same-origin")
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/runs/") {
		t.Fatalf("upload = %d → %q, want 303 to the run", resp.StatusCode, loc)
	}
	_, page := s.get(t, loc)
	if !strings.Contains(page, "GLM-4.5-Air-FP8") || !strings.Contains(page, "FP8") {
		t.Errorf("report of the upload lacks its model or the form's quantization")
	}
}

// TestUploadFormErrors: a refused upload shows each message next to its
// field, keeps what the user typed, and stores nothing.
func TestUploadFormErrors(t *testing.T) {
	s := newSite(t)
	before := s.rowCounts(t)
	body, ct := multipartBody(t, []byte(`{"metadata":{"version":"0.7.8","concurrency_levels":[1],"context_lengths":[0]},"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":-2.5}]}`),
		"bad.json", map[string]string{"gpu_name": "RTX 5090 <b>", "gpu_count": "two", "launch_command": "vllm serve x\n--tp 2"})
	resp, page := s.postForm(t, body, ct)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", resp.StatusCode)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
	if v, _ := doc.Find(`input[name="gpu_name"]`).Attr("value"); v != "RTX 5090 <b>" {
		t.Errorf("gpu_name kept as %q", v)
	}
	if v := doc.Find(`textarea[name="launch_command"]`).Text(); !strings.Contains(v, "--tp 2") {
		t.Errorf("launch command kept as %q", v)
	}
	countErr := doc.Find(`#f-gpu_count-error, [id$="gpu_count-error"]`).Text()
	fileErr := doc.Find(`[id$="file-error"]`).Text()
	if !strings.Contains(countErr, "two") {
		t.Errorf("gpu_count error %q does not name the value", countErr)
	}
	if !strings.Contains(fileErr, "$.results[0].aggregate_tps") {
		t.Errorf("file error %q does not name the JSON path", fileErr)
	}
	if after := s.rowCounts(t); after != before {
		t.Errorf("database changed: %s → %s", before, after)
	}
}

// TestUploadFormCSRF: a browser posting from another site is refused.
func TestUploadFormCSRF(t *testing.T) {
	s := newSite(t)
	file := readFile(t, "../testdata/formats/llm-inference-bench/benchmark_results_0.2.0.json")
	body, ct := multipartBody(t, file, "r.json", nil)
	resp, _ := s.postForm(t, body, ct, "Sec-Fetch-Site: cross-site", "Origin: https://evil.example")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site post = %d, want 403", resp.StatusCode)
	}
	if got := s.rowCounts(t); !strings.HasPrefix(got, "runs=0 ") {
		t.Errorf("a cross-site post stored something: %s", got)
	}
}
