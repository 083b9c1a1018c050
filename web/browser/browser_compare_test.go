package browser_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowserCompare follows a reader from a run's report through "compare
// with…" to a second run of the same model, and reads a ratio off the
// ratio grid. With SCREENSHOTS=dir it also saves the report's charts and
// the comparison at desktop and phone widths.
func TestBrowserCompare(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	a := s.InsertScaled(t, "browser:a", 1, nil)
	b := s.InsertScaled(t, "browser:b", 1.5, func(r *run.Run) { r.Hardware.GPUName, r.Hardware.VRAMGB = "RTX 4090", 24 })
	tab := newTab(t, browser)
	cdpDo(t, tab, "open the report and follow compare with…",
		chromedp.Navigate(s.URL+"/runs/"+a),
		chromedp.WaitReady(chromedp.CSS("#charts svg.chart")),
		chromedp.Click(chromedp.CSS("a[data-compare-with]")),
		chromedp.WaitReady(chromedp.CSS("#same-model a[data-compare]")),
		chromedp.Click(chromedp.CSS("#same-model a[data-compare]")),
		chromedp.WaitReady(chromedp.CSS("table.ratio-grid")),
	)
	loc := cdpRun(t, tab, "location", chromedp.Location())
	if !strings.HasSuffix(loc, "/compare?runs="+a+","+b) {
		t.Errorf("at %s, want /compare?runs=%s,%s", loc, a, b)
	}
	got := cdpRun(t, tab, "ratio 0×1", chromedp.Text(chromedp.CSS(`table.ratio-grid td[data-context="0"][data-concurrency="1"]`)))
	if strings.TrimSpace(got) != "1.50×" {
		t.Errorf("ratio at 0×1 reads %q, want 1.50×", got)
	}
	queued := cdpRun(t, tab, "ratio 0×16", chromedp.Text(chromedp.CSS(`table.ratio-grid td[data-context="0"][data-concurrency="16"]`)))
	if !strings.Contains(queued, "1.50×") || !strings.Contains(queued, "queued") {
		t.Errorf("ratio at 0×16 reads %q, want 1.50× marked queued", queued)
	}
	dir := os.Getenv("SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, vp := range shotViewports {
		for name, path := range map[string]string{"compare": "/compare?runs=" + a + "," + b, "charts": "/runs/" + a, "compare-with": "/compare/with/" + a} {
			tab := newTab(t, browser)
			cdpDo(t, tab, "viewport", emulate(vp), chromedp.Navigate(s.URL+path), chromedp.WaitReady(chromedp.CSS("main")))
			saveShot(t, dir, fmt.Sprintf("%s-%s.png", name, vp.name), cdpRun(t, tab, "screenshot", fullPage()))
			t.Logf("%s %s: %s", name, vp.name, cdpRun(t, tab, "layout facts", chromedp.Evaluate[string](layoutFactsJS)))
		}
	}
}
