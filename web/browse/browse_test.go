package browse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowseShowsNewUpload: a new upload shows at once on /runs, the API's
// list, the leaderboard, the home page, search and its entity pages.
func TestBrowseShowsNewUpload(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.Seed(t)
	doc := func(path string) *goquery.Document {
		t.Helper()
		resp, body := s.Get(t, path)
		if resp.StatusCode != 200 {
			t.Fatalf("%s = %d", path, resp.StatusCode)
		}
		d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, path := range []string{"/runs", "/", "/runs?sort=peak", "/runs?sort=single&engine=vllm"} {
		if doc(path).Find(`table.runs-table tr[data-run="`+id+`"]`).Length() != 1 {
			t.Errorf("%s does not list the new run", path)
		}
	}
	// The leaderboard at 0 × 1 links the run with the cell highlighted.
	lb := doc("/leaderboard")
	href, _ := lb.Find("table.leaderboard a.to-run").First().Attr("href")
	if href != "/runs/"+id+"?cell=0-1#cell-0-1" {
		t.Errorf("leaderboard's first row links %q", href)
	}
	// Its identities link to entity pages that show the run.
	run := doc("/runs")
	var entities []string
	run.Find(`tr[data-run="` + id + `"] a`).Each(func(_ int, a *goquery.Selection) {
		if h, _ := a.Attr("href"); !strings.HasPrefix(h, "/runs/") {
			entities = append(entities, h)
		}
	})
	if len(entities) < 3 {
		t.Fatalf("run row links only %v", entities)
	}
	for _, path := range entities {
		page := doc(path)
		if page.Find(`tr[data-run="`+id+`"]`).Length() != 1 {
			t.Errorf("%s does not list the run", path)
		}
		if page.Find("table.bests a").Length() == 0 && !strings.HasPrefix(path, "/submitters/") {
			t.Errorf("%s shows no best result", path)
		}
	}
	// The API lists it with its identities.
	_, body := s.Get(t, "/api/v1/runs?hardware=rtx-3060-12gb")
	var list struct {
		Runs []struct {
			ID       string `json:"id"`
			Hardware struct{ Slug string }
			Model    struct {
				Slug string
				Base struct{ Slug string }
			}
			BestPeakTPS *float64 `json:"best_peak_tps"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil || len(list.Runs) != 1 || list.Runs[0].ID != id ||
		list.Runs[0].BestPeakTPS == nil || list.Runs[0].Model.Base.Slug == "" {
		t.Errorf("GET /api/v1/runs = %s (%v)", body, err)
	}
	if resp, _ := s.Get(t, "/api/v1/runs?after=garbage"); resp.StatusCode != 400 {
		t.Errorf("a bad cursor = %d, want 400", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/leaderboard?metric=nope"); resp.StatusCode != 400 {
		t.Errorf("an unknown metric = %d, want 400", resp.StatusCode)
	}
	if resp, _ := s.Get(t, "/hardware/no-such-gpu"); resp.StatusCode != 404 {
		t.Errorf("an unknown hardware = %d, want 404", resp.StatusCode)
	}
	if doc("/search?q=3060").Find(`a[href="/hardware/rtx-3060-12gb"]`).Length() != 1 {
		t.Errorf("search for 3060 does not find the RTX 3060")
	}
	t.Logf("entity pages: %v", entities)
}
