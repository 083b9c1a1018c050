package webtest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
)

// MintToken creates submitter handle (in org, when given) and a token of
// theirs, as `speedmatrix submitter create` and `token create` do.
func MintToken(t testing.TB, s *Site, handle, org string) string {
	t.Helper()
	ctx := context.Background()
	if err := s.Store.CreateSubmitter(ctx, handle, org); err != nil {
		t.Fatal(err)
	}
	tok, err := accounts.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Store.CreateToken(ctx, handle, tok.Hash, tok.Prefix); err != nil {
		t.Fatal(err)
	}
	return tok.Secret
}

// SeedOrg makes the organisation lil-lab with one submitter and one run
// uploaded with their token, and returns the run's id.
func SeedOrg(t testing.TB, s *Site) string {
	t.Helper()
	tok := MintToken(t, s, "Sandberg", "lil-lab")
	MintToken(t, s, "quiet-one", "lil-lab")
	resp, out := s.Post(t, "application/json", ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"),
		"Authorization: Bearer "+tok)
	if resp.StatusCode != 201 {
		t.Fatalf("upload with a token = %d %v", resp.StatusCode, out)
	}
	return out["id"].(string)
}

// LilBenchBody is what lil-bench sends: the document as compact JSON,
// gzip level 9.
func LilBenchBody(t testing.TB, path string) []byte {
	t.Helper()
	var compact bytes.Buffer
	if err := json.Compact(&compact, ReadFile(t, path)); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	_, _ = zw.Write(compact.Bytes())
	_ = zw.Close()
	return gz.Bytes()
}

// LilBench sends a request the way lil-bench 1.4 does (its headers, no
// redirects followed) and returns the status and the JSON answer.
func LilBench(t testing.TB, s *Site, method, path, token string, body []byte) (*http.Response, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, s.URL+path, bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("User-Agent", "lil-bench/1.4")
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Content-Encoding", "gzip")
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s %s answered %d with no JSON (lil-bench would crash): %q", method, path, resp.StatusCode, raw)
	}
	return resp, out
}

// LilBenchFile is the two-GPU lil-bench sample the draft tests upload.
const LilBenchFile = "testdata/formats/lil-bench/lil_bench_result_2gpu.json"
