package browse_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestReportLinksEntities: the report page links its hardware, engine,
// model and submitter to their pages, which answer; every page's nav links
// the leaderboard.
func TestReportLinksEntities(t *testing.T) {
	s := webtest.NewSite(t)
	id := s.SeedVerified(t) // a verified name links its page
	resp, body := s.Get(t, "/runs/"+id)
	if resp.StatusCode != 200 {
		t.Fatalf("report = %d", resp.StatusCode)
	}
	d, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if d.Find(`nav a[href="/leaderboard"]`).Length() != 1 {
		t.Error("the nav does not link /leaderboard")
	}
	want := map[string]string{
		"#facts-hardware dd a":  "/hardware/rtx-3060-12gb",
		"#facts-engine dd a":    "/engines/vllm",
		".report .meta a.model": "/models/",
		".report .submitter a":  "/submitters/",
	}
	for sel, prefix := range want {
		href, ok := d.Find(sel).First().Attr("href")
		if !ok || !strings.HasPrefix(href, prefix) {
			t.Errorf("%s links %q, want %s…", sel, href, prefix)
			continue
		}
		if resp, _ := s.Get(t, href); resp.StatusCode != 200 {
			t.Errorf("%s → %s = %d", sel, href, resp.StatusCode)
		}
	}
}
