package browser_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// A viewport to look at the pages in.
type shotViewport struct {
	name          string
	width, height int64
	scale         float64
	mobile        bool
}

var shotViewports = []shotViewport{
	{name: "desktop1280", width: 1280, height: 900, scale: 1},
	{name: "phone390", width: 390, height: 844, scale: 2, mobile: true},
}

// saveScreenshots writes full-page PNGs of the seed run's report (English
// and Japanese, desktop and phone), the phone grid scrolled sideways and
// with a cell's reason open, and
// the upload form with an error, into dir, and logs layout facts a reader
// would notice (sideways overflow, the weakest cell contrast). The PNGs are
// for people to look at; they are not compared.
func saveScreenshots(t *testing.T, browser context.Context, s *webtest.Site, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	id := s.Seed(t)
	for _, vp := range shotViewports {
		for _, lang := range []string{"en", "ja"} {
			tab := newTab(t, browser)
			cdpDo(t, tab, "viewport", emulate(vp))
			cdpDo(t, tab, "open the seed report", chromedp.Navigate(s.URL+"/runs/"+id+"?lang="+lang),
				chromedp.WaitReady(chromedp.CSS("table.grid")))
			saveShot(t, dir, fmt.Sprintf("report-%s-%s.png", lang, vp.name), cdpRun(t, tab, "screenshot", fullPage()))
			t.Logf("%s %s: %s", lang, vp.name, cdpRun(t, tab, "layout facts", chromedp.Evaluate[string](layoutFactsJS)))
			if vp.mobile {
				// Sideways: the context labels must stay put.
				cdpRun(t, tab, "scroll the grid", chromedp.Evaluate[chromedp.Void](
					`document.querySelector('#decode .scroll').scrollLeft = 10000`))
				saveShot(t, dir, fmt.Sprintf("grid-scrolled-%s-%s.png", lang, vp.name),
					cdpRun(t, tab, "grid screenshot", chromedp.Screenshot(chromedp.CSS("#decode"))))
				// A cell's reason, opened as a reader taps its label.
				cdpDo(t, tab, "open a reason", chromedp.Click(chromedp.CSS(`#decode td[data-status="over_capacity"] summary`)))
				saveShot(t, dir, fmt.Sprintf("grid-reason-%s-%s.png", lang, vp.name),
					cdpRun(t, tab, "grid screenshot", chromedp.Screenshot(chromedp.CSS("#decode"))))
			}
		}
		tab := newTab(t, browser)
		notJSON := filepath.Join(t.TempDir(), "notes.txt")
		if err := os.WriteFile(notJSON, []byte("not json\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		lang := map[bool]string{false: "en", true: "ja"}[vp.mobile]
		cdpDo(t, tab, "refused upload", emulate(vp),
			chromedp.Navigate(s.URL+"/upload?lang="+lang),
			chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{notJSON}),
			chromedp.Click(chromedp.CSS("#upload-submit")),
			chromedp.WaitReady(chromedp.CSS("#f-file-error")),
		)
		saveShot(t, dir, fmt.Sprintf("upload-error-%s-%s.png", lang, vp.name), cdpRun(t, tab, "screenshot", fullPage()))
		t.Logf("upload %s %s: %s", lang, vp.name, cdpRun(t, tab, "layout facts", chromedp.Evaluate[string](layoutFactsJS)))
		seed, _ := filepath.Abs(webtest.Path("internal/demo/runs/" + demo.SeedRun))
		cdpDo(t, tab, "preview", chromedp.Navigate(s.URL+"/upload?lang="+lang),
			chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{seed}),
			chromedp.Click(chromedp.CSS("#upload-submit")), chromedp.WaitReady(chromedp.CSS("#draft-form")))
		saveShot(t, dir, fmt.Sprintf("upload-preview-%s-%s.png", lang, vp.name), cdpRun(t, tab, "screenshot", fullPage()))
		t.Logf("preview %s %s: %s", lang, vp.name, cdpRun(t, tab, "layout facts", chromedp.Evaluate[string](layoutFactsJS)))
	}
}

func emulate(vp shotViewport) chromedp.Action[chromedp.Void] {
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(vp.scale)}
	if vp.mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulatePortrait)
	}
	return chromedp.EmulateViewport(vp.width, vp.height, opts...)
}

// fullPage captures the whole page, not only the viewport.
func fullPage() chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		m, err := cdp.Call(ctx, t, cdppage.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		r, err := cdp.Call(ctx, t, cdppage.CaptureScreenshot, cdppage.CaptureScreenshotParams{
			Format:                cdppage.CaptureScreenshotFormatPng,
			CaptureBeyondViewport: new(true),
			FromSurface:           new(true),
			// In CSS pixels; the emulated device scale still applies.
			Clip: &cdppage.Viewport{Width: m.CSSContentSize.Width, Height: m.CSSContentSize.Height, Scale: 1},
		})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	}
}

func saveShot(t *testing.T, dir, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// layoutFactsJS reports what a screenshot hides: whether the page itself
// scrolls sideways, whether the grid's wrapper does, the row labels'
// position, and the weakest text contrast on a coloured grid cell (WCAG).
const layoutFactsJS = `(() => {
	const lum = c => {
		const [r, g, b] = c.match(/[\d.]+/g).slice(0, 3).map(v => {
			v = v / 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)});
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	let worst = 99, worstCell = '';
	for (const td of document.querySelectorAll('table.grid td')) {
		const cs = getComputedStyle(td);
		if (cs.backgroundColor === 'rgba(0, 0, 0, 0)') continue;
		for (const el of [td, ...td.querySelectorAll('span')]) {
			const a = lum(getComputedStyle(el).color), b = lum(cs.backgroundColor);
			const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
			if (ratio < worst) { worst = ratio; worstCell = td.dataset.context + 'x' + td.dataset.concurrency + ' ' + (el.className || 'td') + ' ' + getComputedStyle(el).color + ' on ' + cs.backgroundColor; }
		}
	}
	const de = document.documentElement;
	const th = document.querySelector('table.grid tbody th');
	const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > de.clientWidth + 1 && !e.closest('.scroll')).slice(0, 5)
		.map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).replace(/ /g, '.') : '') + ' right=' + Math.round(e.getBoundingClientRect().right));
	return 'page ' + de.scrollWidth + '/' + de.clientWidth + 'px wide' +
		[...document.querySelectorAll('.scroll')].map(e => '; ' + (e.closest('section') || {}).id + ' scroller ' + e.scrollWidth + '/' + e.clientWidth + 'px').join('') +
		(th ? '; row label position ' + getComputedStyle(th).position + ' bg ' + getComputedStyle(th).backgroundColor : '') +
		(worst < 99 ? '; weakest cell contrast ' + worst.toFixed(2) + ':1 (' + worstCell + ')' : '') +
		(wide.length ? '; past the right edge: ' + wide.join(', ') : '');
})()`
