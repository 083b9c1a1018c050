package upload_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestUploadFormSuccess walks the form's three steps over HTTP: the file
// becomes a preview only its browser sees, the fields typed there are
// kept, publishing leads to the report with the Share panel in view, and
// publishing again leads to the same run.
func TestUploadFormSuccess(t *testing.T) {
	s := webtest.NewSite(t)
	file := webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	body, ct := webtest.MultipartBody(t, file, "run.json", nil)
	b := newBrowserClient(t, s)
	resp, _ := b.send(t, "POST", "/upload", ct, body)
	draft := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(draft, "/upload/drafts/") {
		t.Fatalf("upload = %d → %q, want 303 to its preview", resp.StatusCode, draft)
	}
	if n := s.RowCounts(t); !strings.HasPrefix(n, "runs=0 ") {
		t.Errorf("the upload published before its preview: %s", n)
	}
	if resp, _ := s.Get(t, draft); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another browser sees the preview: %d, want 404", resp.StatusCode)
	}
	resp, page := b.send(t, "GET", draft, "", nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(page, "Preview: not published") || !strings.Contains(page, "GLM-4.5-Air-FP8") {
		t.Fatalf("preview = %d, want 200 marked as not published and showing the model", resp.StatusCode)
	}
	form := url.Values{"action": {"publish"}, "quantization": {"FP8 (typed)"}}
	resp, _ = b.send(t, "POST", draft, "application/x-www-form-urlencoded", []byte(form.Encode()))
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/runs/") || !strings.HasSuffix(loc, "#share") {
		t.Fatalf("publish = %d → %q, want 303 to the report's Share panel", resp.StatusCode, loc)
	}
	_, report := s.Get(t, strings.TrimSuffix(loc, "#share"))
	if !strings.Contains(report, "GLM-4.5-Air-FP8") || !strings.Contains(report, "FP8 (typed)") {
		t.Errorf("report of the upload lacks its model or the typed quantization")
	}
	if again, _ := b.send(t, "POST", draft, "application/x-www-form-urlencoded", []byte(form.Encode())); again.Header.Get("Location") != loc {
		t.Errorf("publishing twice leads to %q, want the same run %q", again.Header.Get("Location"), loc)
	}
	if n := s.RowCounts(t); !strings.HasPrefix(n, "runs=1 ") {
		t.Errorf("after two publications: %s, want one run", n)
	}
}

// TestUploadFormErrors: a refused file shows its problem beside the file
// input with the JSON path, and stores nothing, not even a draft; a field
// refused at publication shows the preview again with the message beside
// the field and the typed value kept.
func TestUploadFormErrors(t *testing.T) {
	s := webtest.NewSite(t)
	before := s.RowCounts(t)
	body, ct := webtest.MultipartBody(t, []byte(`{"metadata":{"version":"0.7.8","concurrency_levels":[1],"context_lengths":[0]},"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":-2.5}]}`),
		"bad.json", nil)
	resp, page := s.PostForm(t, body, ct)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", resp.StatusCode)
	}
	doc, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
	if fileErr := doc.Find(`#f-file-error`).Text(); !strings.Contains(fileErr, "$.results[0].aggregate_tps") {
		t.Errorf("file error %q does not name the JSON path", fileErr)
	}
	if after := s.RowCounts(t); after != before || s.DraftCount(t) != 0 {
		t.Errorf("database changed: %s → %s, %d drafts", before, after, s.DraftCount(t))
	}

	b := newBrowserClient(t, s)
	body, ct = webtest.MultipartBody(t, webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"), "r.json", nil)
	draft, _ := b.send(t, "POST", "/upload", ct, body)
	form := url.Values{"action": {"publish"}, "gpu_name": {"RTX 5090 <b>"}, "gpu_count": {"two"}, "launch_command": {"vllm serve x\n--tp 2"}}
	resp, page = b.send(t, "POST", draft.Header.Get("Location"), "application/x-www-form-urlencoded", []byte(form.Encode()))
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("publish with a bad field = %d, want 422", resp.StatusCode)
	}
	doc, _ = goquery.NewDocumentFromReader(strings.NewReader(page))
	if v, _ := doc.Find(`input[name="gpu_name"]`).Attr("value"); v != "RTX 5090 <b>" {
		t.Errorf("gpu_name kept as %q", v)
	}
	if v := doc.Find(`textarea[name="launch_command"]`).Text(); !strings.Contains(v, "--tp 2") {
		t.Errorf("launch command kept as %q", v)
	}
	if msg := doc.Find(`#f-gpu_count-error`).Text(); !strings.Contains(msg, "two") {
		t.Errorf("gpu_count error %q does not name the value", msg)
	}
	if doc.Find(`#upload-errors[role="alert"]`).Length() != 1 {
		t.Error("the refused publication has no error summary with role=alert")
	}
	if n := s.RowCounts(t); !strings.HasPrefix(n, "runs=0 ") {
		t.Errorf("a refused publication stored a run: %s", n)
	}
}

// TestUploadFormCSRF: a browser posting from another site is refused.
func TestUploadFormCSRF(t *testing.T) {
	s := webtest.NewSite(t)
	file := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.2.0.json")
	body, ct := webtest.MultipartBody(t, file, "r.json", nil)
	resp, _ := s.PostForm(t, body, ct, "Sec-Fetch-Site: cross-site", "Origin: https://evil.example")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("cross-site post = %d, want 403", resp.StatusCode)
	}
	if got := s.RowCounts(t); !strings.HasPrefix(got, "runs=0 ") {
		t.Errorf("a cross-site post stored something: %s", got)
	}
}
