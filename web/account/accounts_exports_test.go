package account_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// claimedExports are the exports that name who uploaded a run, and the
// form the name takes in each (escaped as the format escapes).
var claimedExports = []string{".md", ".bbcode", ".txt", ".csv", "/embed", "/grid.svg", "/badge.svg"}

// TestClaimedNameInExports: an anonymous upload's typed name (nobody's
// handle) is marked claimed in every export and in the run's JSON, in the
// reader's language; an upload with a token is marked verified, with the
// slug of its account's page.
func TestClaimedNameInExports(t *testing.T) {
	s := webtest.NewSite(t)
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	body, ct := webtest.MultipartBody(t, seed, "b.json", map[string]string{"submitter": "mallory"})
	resp, out := s.Post(t, ct, body)
	if resp.StatusCode != 201 {
		t.Fatalf("anonymous upload = %d %v", resp.StatusCode, out)
	}
	claimed := out["id"].(string)
	tok := webtest.MintToken(t, s, "Sandberg", "")
	resp, out = webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("token upload = %d %v", resp.StatusCode, out)
	}
	verified := out["id"].(string)

	for lang, want := range map[string]string{"en": "“mallory” (claimed, not verified)", "ja": "「mallory」（自称・未確認）"} {
		for _, ext := range claimedExports {
			exportSays(t, s, "/runs/"+claimed+ext+"?lang="+lang, want, "verified submitter", "認証済み")
		}
	}
	for _, ext := range claimedExports {
		want := "Sandberg"
		if ext != ".csv" && ext != "/embed" {
			want = "by @Sandberg · verified submitter"
		}
		exportSays(t, s, "/runs/"+verified+ext+"?lang=en", want, "claimed")
	}
	if _, csv := s.Get(t, "/runs/"+verified+".csv?lang=en"); !strings.Contains(csv, ",Sandberg,true,,,") {
		t.Errorf("the verified run's CSV rows do not carry Sandberg,true and no organisation before the power columns:\n%.400s", csv)
	}
	if _, csv := s.Get(t, "/runs/"+claimed+".csv?lang=en"); !strings.Contains(csv, `,"“mallory” (claimed, not verified)",false,,,`) {
		t.Errorf("the claimed run's CSV rows do not carry the claimed name, false and no organisation before the power columns:\n%.400s", csv)
	}
	if _, page := s.Get(t, "/runs/"+verified+"/embed?lang=en"); !strings.Contains(page, `data-verified="true"`) {
		t.Error("the verified run's embed lacks the verified mark")
	}
	runSubmitterIs(t, s, claimed, `{"slug":"","name":"mallory","verified":false}`)
	runSubmitterIs(t, s, verified, `{"slug":"sandberg","name":"Sandberg","verified":true}`)
}

// exportSays fetches path and wants it to contain want and none of bad.
func exportSays(t *testing.T, s *webtest.Site, path, want string, bad ...string) {
	t.Helper()
	resp, body := s.Get(t, path)
	if resp.StatusCode != 200 || !strings.Contains(body, want) {
		t.Errorf("%s = %d without %q", path, resp.StatusCode, want)
	}
	for _, b := range bad {
		if strings.Contains(body, b) {
			t.Errorf("%s says %q", path, b)
		}
	}
}

// runSubmitterIs: both addresses of run id's JSON give this submitter.
func runSubmitterIs(t *testing.T, s *webtest.Site, id, want string) {
	t.Helper()
	for _, path := range []string{"/runs/" + id + ".json", "/api/v1/runs/" + id} {
		_, raw := s.Get(t, path)
		var doc struct {
			Submitter json.RawMessage `json:"submitter"`
		}
		if err := json.Unmarshal([]byte(raw), &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var got bytes.Buffer
		if err := json.Compact(&got, doc.Submitter); err != nil || got.String() != want {
			t.Errorf("%s: submitter %s, want %s", path, doc.Submitter, want)
		}
	}
}
