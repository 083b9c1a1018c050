package browser_test

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowserCalculatorFromReport is the reader's path between the
// calculator and a report: a calculation for the seed's setup, its linked
// result in a fresh tab, then the seed report, whose 0 × 1 cell shows its
// share of that bound and whose calculator link opens the calculator
// prefilled with the run's GPU, model and formats, giving the same bound.
// With SCREENSHOTS=dir the report (English and Japanese) is saved at
// desktop and phone widths.
func TestBrowserCalculatorFromReport(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	id := s.Seed(t)
	tab := newTab(t, browser)
	cdpDo(t, tab, "calculate the seed's setup", chromedp.Navigate(s.URL+"/calculator"),
		chromedp.WaitReady(chromedp.CSS("#calc-form")),
		chromedp.SetValue(chromedp.CSS("#calc-gpu"), "rtx-3060-12gb"),
		chromedp.SetValue(chromedp.CSS("#calc-model"), "Qwen/Qwen3.5-4B"),
		chromedp.SetValue(chromedp.CSS("#calc-weights"), "fp8"),
		chromedp.SetValue(chromedp.CSS("#calc-kv"), "int4"),
		chromedp.Click(chromedp.CSS(`#calc-form button[type="submit"]`)),
		chromedp.WaitReady(chromedp.CSS("#calc-bound")),
	)
	link := cdpRun(t, tab, "result link", chromedp.Evaluate[string](`document.querySelector('#calc-link').href`))
	linked := newTab(t, browser)
	cdpDo(t, linked, "open the linked result", chromedp.Navigate(link), chromedp.WaitReady(chromedp.CSS("#calc-bound")))
	want := cdpRun(t, linked, "linked bound", chromedp.Evaluate[string](calcBoundJS))
	if want != "72.8 tok/s" {
		t.Fatalf("linked result reads %q, want 72.8 tok/s", want)
	}

	cdpDo(t, linked, "open the seed report", chromedp.Navigate(s.URL+"/runs/"+id), chromedp.WaitReady(chromedp.CSS("#bound")))
	if eff := cdpRun(t, linked, "0×1 efficiency", chromedp.Text(chromedp.CSS(`#cell-0-1 .eff`))); eff != "87 % of bound" {
		t.Errorf("0 × 1 cell shows %q, want 87 %% of bound (63.5 of 72.8)", eff)
	}
	cdpDo(t, linked, "follow the report's calculator link",
		chromedp.Click(chromedp.CSS(`#bound a.calc-link`)),
		chromedp.WaitReady(chromedp.CSS("#calc-bound")))
	form := cdpRun(t, linked, "prefilled form", chromedp.Evaluate[string](
		`['gpu','model','weights','head','kv'].map(n => document.querySelector('#calc-' + n).value).join(' ')`))
	if form != "rtx-3060-12gb Qwen/Qwen3.5-4B fp8 bf16 int4" {
		t.Errorf("the report's calculator shows %q", form)
	}
	if got := cdpRun(t, linked, "prefilled bound", chromedp.Evaluate[string](calcBoundJS)); got != want {
		t.Errorf("the report's calculator reads %q, the linked result %q", got, want)
	}
	if loc := cdpRun(t, linked, "location", chromedp.Location()); !strings.Contains(loc, "/calculator?") {
		t.Errorf("report link went to %s", loc)
	}
	if dir := os.Getenv("SCREENSHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, vp := range shotViewports {
			for _, lang := range []string{"en", "ja"} {
				shot := newTab(t, browser)
				cdpDo(t, shot, "viewport", emulate(vp), chromedp.Navigate(s.URL+"/runs/"+id+"?lang="+lang),
					chromedp.WaitReady(chromedp.CSS("main")))
				saveShot(t, dir, "bound-report-"+lang+"-"+vp.name+".png", cdpRun(t, shot, "screenshot", fullPage()))
			}
		}
	}
}
