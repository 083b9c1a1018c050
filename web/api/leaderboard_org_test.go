package api_test

import (
	"encoding/json"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestLeaderboardAPIOrg: a board's API rows name the organisation a run was
// uploaded for, as the run document and the run list do; a verified run
// uploaded for none, and a claimed one, name none.
func TestLeaderboardAPIOrg(t *testing.T) {
	s := webtest.NewSite(t)
	orgRun := orgTokenRun(t, s)   // documented-member for docs-lab
	verified := s.SeedVerified(t) // Sandberg, no organisation
	claimed := webtest.UploadSample(t, s, "llm-inference-bench/benchmark_results_0.7.8.json")

	type submitter struct {
		Slug, Name string
		Verified   bool
		Org        *struct{ Slug, Name string }
	}
	var board struct {
		Rows []struct {
			RunID     string `json:"run_id"`
			Submitter submitter
		}
	}
	_, body := s.Get(t, "/api/v1/leaderboard")
	if err := json.Unmarshal([]byte(body), &board); err != nil {
		t.Fatalf("%v: %.300s", err, body)
	}
	got := map[string]submitter{}
	for _, r := range board.Rows {
		got[r.RunID] = r.Submitter
	}
	if sub, ok := got[orgRun]; !ok || !sub.Verified || sub.Org == nil || sub.Org.Slug != "docs-lab" || sub.Org.Name == "" {
		t.Errorf("the organisation's run on the board: %+v (ranked %v), want verified with org docs-lab", sub, ok)
	}
	if sub, ok := got[verified]; !ok || !sub.Verified || sub.Org != nil {
		t.Errorf("the verified run without an organisation on the board: %+v (ranked %v), want no org", sub, ok)
	}
	if sub, ok := got[claimed]; !ok || sub.Verified || sub.Org != nil {
		t.Errorf("the claimed run on the board: %+v (ranked %v), want no org", sub, ok)
	}
	// The run list says the same of each.
	var list struct {
		Runs []struct {
			ID        string
			Submitter submitter
		}
	}
	_, body = s.Get(t, "/api/v1/runs")
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	for _, r := range list.Runs {
		if b, ok := got[r.ID]; ok && (b.Org == nil) != (r.Submitter.Org == nil) {
			t.Errorf("run %s: the board's submitter %+v, the run list's %+v", r.ID, b, r.Submitter)
		}
	}
}
