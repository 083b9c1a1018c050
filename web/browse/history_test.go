package browse_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// The seed's setup measured with two older vLLM versions: the report links
// to the history, which orders the versions by number (0.9.0, 0.10.0,
// 0.32.0, not as text), gives each the change over the one before and the
// newest's ("+11 % since 0.10.0"), and charts any cell the form asks for.
func TestHistoryAcrossVersions(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	if doc := webtest.Page(t, s, "/runs/"+seed); doc.Find(".history-link").Length() != 0 {
		t.Error("a run without earlier versions links to a history")
	}
	for _, v := range []struct {
		hash, version string
		factor        float64
	}{{"e1", "0.10.0", 0.9}, {"e2", "0.9.0", 0.75}} {
		s.UploadVariant(t, seed, v.hash, func(doc map[string]any) {
			doc["engine"].(map[string]any)["version"] = v.version
			for _, c := range doc["decode"].([]any) {
				if x, ok := c.(map[string]any)["total_tps"].(float64); ok {
					c.(map[string]any)["total_tps"] = x * v.factor
				}
			}
		})
	}
	href, ok := webtest.Page(t, s, "/runs/"+seed).Find(".history-link a").Attr("href")
	if !ok || !strings.HasPrefix(href, "/history?") {
		t.Fatalf("report's history link %q", href)
	}
	doc := webtest.Page(t, s, href)
	versions := webtest.Texts(doc.Find("table.history-table tbody th"))
	if strings.Join(versions, ",") != "0.9.0,0.10.0,0.32.0" {
		t.Errorf("versions %v", versions)
	}
	if got := webtest.Texts(doc.Find("table.history-table tbody td.change")); strings.Join(got, ",") != ",+20 %,+11 %" {
		t.Errorf("changes %q", got)
	}
	if got := strings.TrimSpace(doc.Find(".median").Text()); got != "+11 % since 0.10.0" {
		t.Errorf("latest change %q", got)
	}
	if doc.Find("svg.chart").Length() != 1 || doc.Find(`select[name="cell"] option`).Length() < 10 {
		t.Error("no chart, or the form offers too few cells")
	}
	doc = webtest.Page(t, s, href+"&cell=32768x1")
	if got := webtest.Texts(doc.Find("table.history-table tbody td.num:not(.change)")); len(got) != 3 || got[2] != "31.6" {
		t.Errorf("32K × 1: %q", got)
	}
	if resp, _ := s.Get(t, "/history?model=x"); resp.StatusCode != 400 {
		t.Errorf("history without a setup = %d, want 400", resp.StatusCode)
	}
	hw, _ := webtest.Page(t, s, "/runs/"+seed).Find("#facts-hardware dd a").First().Attr("href")
	if webtest.Page(t, s, hw).Find(`a[href^="/history?"]`).Length() != 1 {
		t.Errorf("hardware page %s has no history link", hw)
	}
}
