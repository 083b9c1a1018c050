package upload_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestLilBenchClient replays lil-bench 1.4: whoami, then the gzip upload,
// then a resend of the same run_id, and the 401/403 paths it stops on.
func TestLilBenchClient(t *testing.T) {
	s := webtest.NewSite(t)
	tok := webtest.MintToken(t, s, "Sandberg", "")
	body := webtest.LilBenchBody(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")

	resp, out := webtest.LilBench(t, s, "GET", "/api/bench/whoami", tok, nil)
	if resp.StatusCode != 200 || out["login"] != "Sandberg" {
		t.Errorf("whoami = %d %v, want 200 {login: Sandberg}", resp.StatusCode, out)
	}
	resp, out = webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, body)
	url, _ := out["url"].(string)
	id, _ := out["id"].(string)
	if resp.StatusCode != 201 || id == "" || url != s.URL+"/runs/"+id {
		t.Fatalf("upload = %d %v, want 201 {id, url}", resp.StatusCode, out)
	}
	// `lil-bench upload FILE` may send the same run again: the same run.
	resp, again := webtest.LilBench(t, s, "POST", "/api/bench/runs", tok, body)
	if resp.StatusCode/100 != 2 || again["id"] != id || again["url"] != url {
		t.Errorf("resend = %d %v, want 2xx with the first run %s", resp.StatusCode, again, id)
	}
	// The report names the verified submitter and lil-bench's integrity.
	page, html := s.Get(t, "/runs/"+id+"?lang=en")
	if page.StatusCode != 200 || !strings.Contains(html, `data-verified="true"`) ||
		!strings.Contains(html, "verified submitter") || !strings.Contains(html, `data-badge="integrity-modified"`) {
		t.Errorf("report lacks the verified mark or the integrity badge")
	}
	var doc struct {
		Submitter struct {
			Slug, Name string
			Verified   bool
		} `json:"submitter"`
		Profile   string `json:"profile"`
		Integrity string `json:"integrity"`
	}
	_, raw := s.Get(t, "/api/v1/runs/"+id)
	if err := json.Unmarshal([]byte(raw), &doc); err != nil || doc.Submitter.Name != "Sandberg" || !doc.Submitter.Verified ||
		doc.Profile != "standard" || doc.Integrity != "modified" {
		t.Errorf("API document = %+v (%v), want Sandberg verified, standard, modified", doc, err)
	}

	// A token the site does not know, a malformed one, none: 401 with an
	// error lil-bench shows. A revoked one: 403.
	unknown, _ := accounts.NewToken()
	for name, token := range map[string]string{"unknown": unknown.Secret, "malformed": "lilb_short", "none": ""} {
		resp, out := webtest.LilBench(t, s, "GET", "/api/bench/whoami", token, nil)
		if msg, _ := out["error"].(string); resp.StatusCode != 401 || msg == "" {
			t.Errorf("whoami with %s token = %d %v, want 401 with an error", name, resp.StatusCode, out)
		}
	}
	resp, out = webtest.LilBench(t, s, "POST", "/api/bench/runs", unknown.Secret, body)
	if msg, _ := out["error"].(string); resp.StatusCode != 401 || msg == "" {
		t.Errorf("upload with an unknown token = %d %v, want 401 with an error", resp.StatusCode, out)
	}
	if _, err := s.Store.RevokeToken(context.Background(), accounts.Hash(tok), ""); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/api/bench/whoami", "/api/bench/runs"} {
		method, b := "GET", []byte(nil)
		if strings.HasSuffix(path, "runs") {
			method, b = "POST", body
		}
		if resp, out := webtest.LilBench(t, s, method, path, tok, b); resp.StatusCode != 403 || out["error"] == "" {
			t.Errorf("%s with a revoked token = %d %v, want 403", path, resp.StatusCode, out)
		}
	}
}

// TestQuickProfile: a quick lil-bench run is stored and shown with its
// badge.
func TestQuickProfile(t *testing.T) {
	s := webtest.NewSite(t)
	quick := strings.Replace(string(webtest.ReadFile(t, "testdata/formats/lil-bench/lil_bench_result_2gpu.json")),
		`"profile": "standard"`, `"profile": "quick"`, 1)
	if !strings.Contains(quick, `"profile": "quick"`) {
		t.Fatal("the sample has no standard profile to change")
	}
	resp, out := s.Post(t, "application/json", []byte(quick))
	if resp.StatusCode != 201 {
		t.Fatalf("quick upload = %d %v", resp.StatusCode, out)
	}
	for _, lang := range i18n.Languages {
		_, html := s.Get(t, "/runs/"+out["id"].(string)+"?lang="+lang.Tag)
		if !strings.Contains(html, `data-badge="quick"`) {
			t.Errorf("%s: the quick run shows no quick badge", lang.Tag)
		}
	}
}
