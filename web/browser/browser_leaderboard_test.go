package browser_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// leaderRowsJS reads the ranked leaderboard's rows: run id and value.
const leaderRowsJS = `Array.from(document.querySelectorAll('table.leaderboard')[0]?.querySelectorAll('tbody tr') || [])
	.map(tr => tr.dataset.run + ' ' + tr.querySelector('a.to-run').innerText)`

// targetCellJS names the grid cell the address's fragment targets and
// whether the page draws it highlighted (an outline).
const targetCellJS = `(() => {
	const td = document.querySelector('table.grid td:target');
	if (!td) return 'none';
	return td.dataset.context + 'x' + td.dataset.concurrency + ' outline ' + getComputedStyle(td).outlineStyle;
})()`

// TestBrowserLeaderboardToCompare is the browse reader's path in a real
// browser: filter the leaderboard with its form, follow the remaining row
// to its run with the cell highlighted, go "compare with…" to a run of the
// same model on other hardware, and read the ratio. Three runs make the
// path deterministic: a (RTX 3060, the reference numbers), b (the same
// model on an RTX 4090, 1.5×) and c (another model on the RTX 4090, 3×,
// which tops the unfiltered board). With SCREENSHOTS=dir each step is
// saved at desktop and phone widths.
func TestBrowserLeaderboardToCompare(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	on4090 := func(r *run.Run) { r.Hardware.GPUName, r.Hardware.VRAMGB = "RTX 4090", 24 }
	a := s.InsertScaled(t, "path:a", 1, nil)
	b := s.InsertScaled(t, "path:b", 1.5, on4090)
	c := s.InsertScaled(t, "path:c", 3, func(r *run.Run) { on4090(r); r.Model.ID = "Qwen/Qwen3-8B" })
	tab := newTab(t, browser)

	cdpDo(t, tab, "open the leaderboard", chromedp.Navigate(s.URL+"/leaderboard"),
		chromedp.WaitReady(chromedp.CSS("table.leaderboard")))
	rows := cdpRun(t, tab, "unfiltered rows", chromedp.Evaluate[[]string](leaderRowsJS))
	if len(rows) != 3 || !strings.HasPrefix(rows[0], c+" ") || !strings.HasPrefix(rows[1], b+" ") || !strings.HasPrefix(rows[2], a+" ") {
		t.Fatalf("unfiltered leaderboard rows %q, want c, b, a (%s, %s, %s)", rows, c, b, a)
	}

	// The form is a plain GET form: choose the RTX 3060 and submit.
	cdpDo(t, tab, "filter by hardware",
		chromedp.SetValue(chromedp.CSS(`form.filters select[name="hardware"]`), "rtx-3060-12gb"),
		chromedp.Click(chromedp.CSS(`form.filters button[type="submit"]`)),
		chromedp.WaitReady(chromedp.CSS(`form.filters select[name="hardware"] option[value="rtx-3060-12gb"][selected]`)),
	)
	if loc := cdpRun(t, tab, "location", chromedp.Location()); !strings.Contains(loc, "hardware=rtx-3060-12gb") {
		t.Errorf("filtered leaderboard at %s, want the filter in the URL", loc)
	}
	rows = cdpRun(t, tab, "filtered rows", chromedp.Evaluate[[]string](leaderRowsJS))
	if len(rows) != 1 || !strings.HasPrefix(rows[0], a+" ") {
		t.Fatalf("leaderboard filtered to the RTX 3060 shows %q, want only run %s", rows, a)
	}
	board := cdpRun(t, tab, "leaderboard URL", chromedp.Location())

	cdpDo(t, tab, "follow the row to its run",
		chromedp.Click(chromedp.CSS(`table.leaderboard tr[data-run="`+a+`"] a.to-run`)),
		chromedp.WaitReady(chromedp.CSS("table.grid")),
	)
	runAt := cdpRun(t, tab, "run URL", chromedp.Location())
	if want := "/runs/" + a + "?cell=0-1#cell-0-1"; !strings.HasSuffix(runAt, want) {
		t.Errorf("the row links %s, want …%s", runAt, want)
	}
	if got := cdpRun(t, tab, "highlighted cell", chromedp.Evaluate[string](targetCellJS)); got != "0x1 outline solid" {
		t.Errorf("highlighted cell %q, want 0x1 outline solid", got)
	}

	cdpDo(t, tab, "compare with…",
		chromedp.Click(chromedp.CSS("a[data-compare-with]")),
		chromedp.WaitReady(chromedp.CSS("#same-model")),
	)
	with := cdpRun(t, tab, "compare-with URL", chromedp.Location())
	offered := cdpRun(t, tab, "candidates", chromedp.Evaluate[[]string](
		`Array.from(document.querySelectorAll('#same-model a[data-compare]')).map(a => a.dataset.compare)`))
	if len(offered) != 1 || offered[0] != b {
		t.Fatalf("compare with… offers %q of the same model, want only %s", offered, b)
	}
	cdpDo(t, tab, "pick the second run",
		chromedp.Click(chromedp.CSS(`#same-model a[data-compare="`+b+`"]`)),
		chromedp.WaitReady(chromedp.CSS("table.ratio-grid")),
	)
	compare := cdpRun(t, tab, "compare URL", chromedp.Location())
	if !strings.HasSuffix(compare, "/compare?runs="+a+","+b) {
		t.Errorf("at %s, want /compare?runs=%s,%s", compare, a, b)
	}
	ratio := cdpRun(t, tab, "ratio 0×1", chromedp.Text(chromedp.CSS(`table.ratio-grid td[data-context="0"][data-concurrency="1"]`)))
	if strings.TrimSpace(ratio) != "1.50×" {
		t.Errorf("ratio at 0×1 reads %q, want 1.50× (b ÷ a)", ratio)
	}

	if dir := os.Getenv("SCREENSHOTS"); dir != "" {
		shootPath(t, browser, dir, []struct{ name, url string }{{"1-leaderboard", board}, {"2-run-cell", runAt}, {"3-compare-with", with}, {"4-compare", compare}}, runAt)
	}
}

// shootPath saves each step of the path at desktop and phone widths, and
// the highlighted cell's grid alone.
func shootPath(t *testing.T, browser context.Context, dir string, steps []struct{ name, url string }, runAt string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, vp := range shotViewports {
		for _, st := range steps {
			tab := newTab(t, browser)
			cdpDo(t, tab, "viewport", emulate(vp), chromedp.Navigate(st.url), chromedp.WaitReady(chromedp.CSS("main")))
			saveShot(t, dir, fmt.Sprintf("path%s-%s.png", st.name, vp.name), cdpRun(t, tab, "screenshot", fullPage()))
			t.Logf("%s %s: %s", st.name, vp.name, cdpRun(t, tab, "layout facts", chromedp.Evaluate[string](layoutFactsJS)))
			if st.url == runAt { // the grid alone, to see the highlighted cell
				saveShot(t, dir, fmt.Sprintf("path%s-grid-%s.png", st.name, vp.name),
					cdpRun(t, tab, "grid screenshot", chromedp.Screenshot(chromedp.CSS("#decode"))))
			}
		}
	}
}

// valueLinesJS reads each ranked row's value and how many lines its text
// takes (a range over the text has one client rectangle per line; the link
// itself may be an inline block, one rectangle however many lines), then
// whether the page itself scrolls sideways and whether the board's wrapper
// does.
const valueLinesJS = `(() => {
	const lines = el => { const r = document.createRange(); r.selectNodeContents(el); return r.getClientRects().length; };
	const rows = Array.from(document.querySelectorAll('table.leaderboard')[0].querySelectorAll('tbody a.to-run'))
		.map(a => a.innerText + ' ' + lines(a));
	const de = document.documentElement, wrap = document.querySelector('table.leaderboard').closest('.scroll');
	return rows.concat(['page ' + (de.scrollWidth > de.clientWidth), 'board ' + (wrap.scrollWidth > wrap.clientWidth)]);
})()`

// TestBrowserLeaderboardPhoneValue: on a 390 px phone, in French (decimal
// comma), a tokens-per-joule value keeps its number and unit on one line;
// the board scrolls sideways inside its wrapper, never the page. The
// value's column is as narrow as its bar (6rem) when the board overflows,
// so a value wider than that, as "0,00766 tok/J" is whatever the font,
// broke at the space before its unit.
func TestBrowserLeaderboardPhoneValue(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	// 6.35 tok/s at 0×1 on 829 W over eight boards: 0.00766 tok/J; a long
	// model name widens the board beyond the phone.
	s.InsertScaled(t, "phone:a", 0.1, func(r *run.Run) {
		r.Hardware.GPUName, r.Hardware.GPUCount, r.Hardware.VRAMGB = "RTX 4090", 8, 24
		r.Model.ID = "mistralai/Mistral-Small-3.2-24B-Instruct-2506-GPTQ-Int4"
		for i := range r.Decode {
			r.Decode[i].PowerW = run.F(829)
		}
	})
	tab := newTab(t, browser)
	cdpDo(t, tab, "open the board on a phone", emulate(shotViewports[1]),
		chromedp.Navigate(s.URL+"/leaderboard?metric=tokens_per_joule&lang=fr"),
		chromedp.WaitReady(chromedp.CSS("table.leaderboard")))
	got := cdpRun(t, tab, "value lines", chromedp.Evaluate[[]string](valueLinesJS))
	want := []string{"0,00766 tok/J 1", "page false", "board true"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("at 390 px in French: %q, want %q (the value on one line, the board scrolling, not the page)", got, want)
	}
}
