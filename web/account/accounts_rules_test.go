package account_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/web/site"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestDeleteRun: only the owning token deletes a run.
func TestDeleteRun(t *testing.T) {
	s := webtest.NewSite(t)
	owner := webtest.MintToken(t, s, "owner", "")
	other := webtest.MintToken(t, s, "other", "")
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	_, out := s.Post(t, "application/json", seed, "Authorization: Bearer "+owner)
	id := out["id"].(string)
	anonID := s.Seed(t)
	for _, tc := range []struct {
		name, id, token string
		status          int
	}{
		{"no token", id, "", 401},
		{"another's token", id, other, 403},
		{"an anonymous run", anonID, owner, 403},
		{"no such run", "aaaaaaaaaa", owner, 404},
		{"the owner", id, owner, 204},
		{"again", id, owner, 404},
	} {
		var h []string
		if tc.token != "" {
			h = append(h, "Authorization: Bearer "+tc.token)
		}
		resp, body := s.Do(t, "DELETE", "/api/v1/runs/"+tc.id, nil, h...)
		if resp.StatusCode != tc.status {
			t.Errorf("DELETE by %s = %d %s, want %d", tc.name, resp.StatusCode, body, tc.status)
		}
		if tc.status != 204 && !strings.Contains(body, `"error"`) {
			t.Errorf("DELETE by %s: no error object: %s", tc.name, body)
		}
	}
	for _, path := range []string{"/runs/" + id, "/api/v1/runs/" + id} {
		// Gone for good, not mistyped: 410.
		if resp, _ := s.Get(t, path); resp.StatusCode != 410 {
			t.Errorf("deleted run: %s = %d, want 410", path, resp.StatusCode)
		}
	}
	if resp, _ := s.Get(t, "/runs/"+anonID); resp.StatusCode != 200 {
		t.Errorf("the anonymous run is gone")
	}
}

// TestHiddenRun: a hidden run answers 404 everywhere and leaves the home
// page, but stays stored.
func TestHiddenRun(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	if _, html := s.Get(t, "/"); !strings.Contains(html, id) {
		t.Fatal("the seed run is not on the home page to begin with")
	}
	s.Get(t, "/runs/"+id) // into the page cache
	if err := s.Store.HideRun(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/runs/" + id, "/runs/" + id + ".json", "/api/v1/runs/" + id, "/runs/" + id + "/source"} {
		if resp, _ := s.Get(t, path); resp.StatusCode != 404 {
			t.Errorf("hidden run: %s = %d, want 404", path, resp.StatusCode)
		}
	}
	if _, html := s.Get(t, "/"); strings.Contains(html, id) {
		t.Error("the home page lists a hidden run")
	}
	if n := s.RowCounts(t); !strings.Contains(n, "runs=1") {
		t.Errorf("hidden run not kept: %s", n)
	}
}

// TestAnonymousRefused is ALLOW_ANONYMOUS=false: every upload door answers
// 401 with a message without a token, and takes one with a token.
func TestAnonymousRefused(t *testing.T) {
	s := webtest.NewPolicySite(t, site.UploadPolicy{RefuseAnonymous: true}, nil)
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	resp, out := s.Post(t, "application/json", seed)
	if msg, _ := out["error"].(string); resp.StatusCode != 401 || !strings.Contains(msg, "token") {
		t.Errorf("anonymous API upload = %d %v, want 401 naming the token", resp.StatusCode, out)
	}
	if resp, _ := webtest.LilBench(t, s, "POST", "/api/bench/runs", "", webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")); resp.StatusCode != 401 {
		t.Errorf("anonymous lil-bench upload = %d, want 401", resp.StatusCode)
	}
	body, ct := webtest.MultipartBody(t, seed, "b.json", nil)
	resp2, html := s.Do(t, "POST", "/upload?lang=ja", body, "Content-Type: "+ct)
	// The form's answer says to sign in, in the reader's language.
	if resp2.StatusCode != 401 || !strings.Contains(html, `id="upload-sign-in"`) || !strings.Contains(html, "サインイン") {
		t.Errorf("anonymous form upload = %d, want 401 asking to sign in, in Japanese", resp2.StatusCode)
	}
	if s.RowCounts(t) != "runs=0 run_sources=0 decode_cells=0 prefill_rows=0" {
		t.Errorf("refused uploads stored something: %s", s.RowCounts(t))
	}
	tok := webtest.MintToken(t, s, "someone", "")
	if resp, out := s.Post(t, "application/json", seed, "Authorization: Bearer "+tok); resp.StatusCode != 201 {
		t.Errorf("upload with a token = %d %v, want 201", resp.StatusCode, out)
	}
}

// TestUploadRateLimit: uploads beyond the hourly budget answer 429 with
// Retry-After, per address without a token and per token with one, on
// every door; the budget refills with time.
func TestUploadRateLimit(t *testing.T) {
	clock := webtest.NewFakeClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	s := webtest.NewPolicySite(t, site.UploadPolicy{PerHourAddress: 2, PerHourToken: 3, Now: clock.Now}, nil)
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	for i := range 2 {
		if resp, out := s.Post(t, "application/json", seed); resp.StatusCode/100 != 2 {
			t.Fatalf("anonymous upload %d = %d %v", i+1, resp.StatusCode, out)
		}
	}
	resp, out := s.Post(t, "application/json", seed)
	if msg, _ := out["error"].(string); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1800" || msg == "" {
		t.Errorf("third anonymous upload = %d, Retry-After %q, %v; want 429, 1800 and an error",
			resp.StatusCode, resp.Header.Get("Retry-After"), out)
	}
	body, ct := webtest.MultipartBody(t, seed, "b.json", nil)
	if resp, html := s.Do(t, "POST", "/upload?lang=zh-Hans", body, "Content-Type: "+ct); resp.StatusCode != 429 ||
		resp.Header.Get("Retry-After") == "" || !strings.Contains(html, "上传过多") {
		t.Errorf("form upload over the limit = %d, want 429 with Retry-After and the localised page", resp.StatusCode)
	}
	// A token has its own budget.
	tok := webtest.MintToken(t, s, "busy", "")
	lb := webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	for i := range 3 {
		if resp, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, lb); resp.StatusCode/100 != 2 {
			t.Fatalf("token upload %d = %d %v", i+1, resp.StatusCode, out)
		}
	}
	if resp, out := webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, lb); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1200" {
		t.Errorf("fourth token upload = %d, Retry-After %q, %v; want 429, 1200", resp.StatusCode, resp.Header.Get("Retry-After"), out)
	}
	// Half an hour later one anonymous upload is allowed again.
	clock.Add(30 * time.Minute)
	if resp, out := s.Post(t, "application/json", seed); resp.StatusCode/100 != 2 {
		t.Errorf("after the wait = %d %v, want accepted", resp.StatusCode, out)
	}
}

// TestAPICORS: reads are open to every origin without credentials; the
// preflight names only the read methods; HEAD answers like GET.
func TestAPICORS(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	resp, _ := s.Get(t, "/api/v1/runs/"+id, "Origin: https://forum.example")
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" || resp.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("GET: Allow-Origin %q, Allow-Credentials %q", resp.Header.Get("Access-Control-Allow-Origin"),
			resp.Header.Get("Access-Control-Allow-Credentials"))
	}
	resp, _ = s.Do(t, "OPTIONS", "/api/v1/runs/"+id, nil, "Origin: https://forum.example",
		"Access-Control-Request-Method: GET")
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "GET") ||
		strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Errorf("preflight = %d %v", resp.StatusCode, resp.Header)
	}
	resp, body := s.Do(t, "HEAD", "/api/v1/runs/"+id, nil)
	if resp.StatusCode != 200 || body != "" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("HEAD = %d with %d bytes", resp.StatusCode, len(body))
	}
	if resp, _ := s.Get(t, "/api/openapi.json"); resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("the OpenAPI document is not open to other origins")
	}
}
