package report_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestWhatDiffersNamesTheKVCacheFirst: the seed run's report, kept by the
// page cache, is renewed when a copy whose only change is its KV-cache
// flag (and 1.1× the speed) is uploaded, and then names that flag first
// among the launch flags that differ, with the gap at 0 × 1 (about −9 %).
func TestWhatDiffersNamesTheKVCacheFirst(t *testing.T) {
	s := webtest.NewSite(t)
	seed := s.Seed(t)
	report := "/runs/" + seed + "?lang=en"
	before := webtest.Page(t, s, report).Find("#differs")
	if before.Length() != 1 || before.Find(".differs-item").Length() != 0 || before.Find("p.notes").Length() != 1 {
		t.Fatalf("alone, the seed's section should say there is no other run: %q", before.Text())
	}
	fp8 := s.SeedCopy(t, "0.32.0", 1.1, func(cmd string) string {
		return strings.Replace(cmd, "--kv-cache-dtype int4_per_token_head", "--kv-cache-dtype fp8", 1)
	})
	sec := webtest.Page(t, s, report).Find("#differs")
	item := sec.Find(".differs-item")
	if item.Length() != 1 {
		t.Fatalf("after the copy's upload, %d comparisons (the cached report was not renewed?): %q", item.Length(), sec.Text())
	}
	if href, _ := item.Find(".differs-intro a").Attr("href"); href != "/runs/"+fp8 {
		t.Errorf("compared with %q, want the copy /runs/%s", href, fp8)
	}
	gap := item.Find("table.differs-gaps tbody tr").First()
	if cell, change := strings.TrimSpace(gap.Find("th").Text()), strings.TrimSpace(gap.Find("td.change").Text()); cell != "0 × 1" || !strings.HasPrefix(change, "-9") {
		t.Errorf("first gap %q %q, want 0 × 1 at about -9 %%", cell, change)
	}
	flags := item.Find("table.differs-rows tbody th code")
	if flags.Length() == 0 || flags.First().Text() != "--kv-cache-dtype" {
		t.Errorf("launch flags that differ %v, want --kv-cache-dtype first", webtest.Texts(flags))
	}
	row := flags.First().Closest("tr")
	if got := webtest.Texts(row.Find("td")); len(got) != 2 || got[0] != "int4_per_token_head" || got[1] != "fp8" {
		t.Errorf("the flag's row %v, want this run's int4_per_token_head beside fp8", got)
	}
	// The copy's own report compares it with the seed, the slower runner-up.
	if webtest.Page(t, s, "/runs/"+fp8).Find(`#differs .differs-intro a[href="/runs/`+seed+`"]`).Length() == 0 {
		t.Error("the fastest run's report does not compare it with the runner-up")
	}
}
