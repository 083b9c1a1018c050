package account_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestClaimedNames: a name typed without a token or session is claimed:
// it may not be an account's handle (422 naming the field, at every door),
// it never appears among an account's runs even when the account comes
// later, and every page and the API mark it as not verified.
func TestClaimedNames(t *testing.T) {
	s := webtest.NewSite(t)
	alice := webtest.NewVisitor(t, s)
	alice.Signup("alice", "alice@example.com", webtest.Password)
	seed := webtest.ReadFile(t, "testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")

	// The API and the form refuse ALICE, naming the field.
	body, ct := webtest.MultipartBody(t, seed, "b.json", map[string]string{"submitter": "ALICE"})
	resp, out := s.Post(t, ct, body)
	probs, _ := out["problems"].([]any)
	if resp.StatusCode != 422 || len(probs) == 0 || probs[0].(map[string]any)["path"] != "submitter" {
		t.Errorf("API upload claiming ALICE = %d %v, want 422 naming submitter", resp.StatusCode, out)
	}
	resp2, page := webtest.NewVisitor(t, s).Upload(body, ct)
	if resp2.StatusCode != 422 || !strings.Contains(page, `id="f-submitter-error"`) {
		t.Errorf("form upload claiming ALICE = %d, want 422 with the message at the submitter field", resp2.StatusCode)
	}

	// A name nobody has is stored as claimed; its owner-to-be signs up later.
	body, ct = webtest.MultipartBody(t, seed, "b.json", map[string]string{"submitter": "mallory"})
	resp, out = s.Post(t, ct, body)
	if resp.StatusCode != 201 {
		t.Fatalf("anonymous upload as mallory = %d %v", resp.StatusCode, out)
	}
	id := out["id"].(string)
	webtest.NewVisitor(t, s).Signup("mallory", "m@example.com", webtest.Password)
	if resp, page := s.Get(t, "/submitters/mallory"); strings.Contains(page, id) {
		t.Errorf("/submitters/mallory (%d) lists the run only claimed under that name", resp.StatusCode)
	}
	claimed := map[string]string{"en": "“mallory” (claimed, not verified)", "ja": "「mallory」（自称・未確認）", "zh-Hans": "“mallory”（自称，未验证）"}
	for lang, want := range claimed {
		for _, path := range []string{"/runs/" + id, "/runs", "/"} {
			if _, page := s.Get(t, path+"?lang="+lang); !strings.Contains(page, want) {
				t.Errorf("%s in %s does not mark the name as claimed (%q)", path, lang, want)
			}
		}
	}
	_, raw := s.Get(t, "/api/v1/runs")
	var list struct {
		Runs []struct {
			ID        string `json:"id"`
			Submitter struct {
				Slug, Name string
				Verified   bool
			} `json:"submitter"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(raw), &list); err != nil || len(list.Runs) != 1 {
		t.Fatalf("API list = %v %s", err, raw)
	}
	if sub := list.Runs[0].Submitter; sub.Name != "mallory" || sub.Verified || sub.Slug != "" {
		t.Errorf("API submitter = %+v, want mallory, not verified, no slug", sub)
	}
	if _, raw := s.Get(t, "/api/v1/runs?"+url.Values{"submitter": {"mallory"}}.Encode()); strings.Contains(raw, id) {
		t.Error("filtering by submitter mallory finds the claimed run")
	}
	var doc struct {
		Submitter *struct {
			Slug, Name string
			Verified   *bool
		} `json:"submitter"`
	}
	_, raw = s.Get(t, "/api/v1/runs/"+id)
	if err := json.Unmarshal([]byte(raw), &doc); err != nil || doc.Submitter == nil || doc.Submitter.Name != "mallory" ||
		doc.Submitter.Slug != "" || doc.Submitter.Verified == nil || *doc.Submitter.Verified {
		t.Errorf("the run's JSON submitter = %s, want mallory, verified false, no slug", raw[:min(len(raw), 300)])
	}
}
