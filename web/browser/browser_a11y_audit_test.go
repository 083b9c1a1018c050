package browser_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// pageTimeout bounds the audit of one page in one language.
const pageTimeout = 2 * time.Minute

// phoneWidth is the narrowest phone the pages must fit without scrolling
// sideways.
const phoneWidth = 360

// axeTags are the rule sets the audit runs: WCAG 2.2 A and AA and axe's
// best practices (landmark-unique, region, heading-order among them).
const axeTags = `['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']`

// axeRunJS runs axe on the page with the given runOnly and returns each
// violation as one line: rule, impact, the first nodes' selectors and what
// axe says about the first node.
const axeRunJS = `axe.run(document, {runOnly: %s, resultTypes: ['violations']}).then(r =>
	r.violations.map(v => v.id + ' (' + v.impact + ', ' + v.nodes.length + ' nodes): ' +
		v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ') + ' — ' +
		(v.nodes[0].failureSummary || '').replace(/\s+/g, ' ').slice(0, 240)))`

// overflowJS says how far the page is wider than its viewport, and which
// elements reach past the right edge outside a scrolling wrapper.
const overflowJS = `(() => {
	const de = document.documentElement, over = de.scrollWidth - de.clientWidth;
	if (over <= 0) return '';
	const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > de.clientWidth + 1 &&
		!e.parentElement.closest('.scroll, pre')).slice(0, 5).map(e => e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') +
		' right=' + Math.round(e.getBoundingClientRect().right));
	return 'page is ' + de.scrollWidth + ' px wide at ' + de.clientWidth + ' px: ' + wide.join(', ');
})()`

// hatchContrastJS is the contrast check axe leaves undone: it cannot read
// text on a gradient, and the non-valid grid cells are hatched. Every
// colour of a cell's stripes, laid over its ground, must keep each line of
// its text (the reason a label opens to among them) at 4.5:1 (WCAG AA). It returns the cells that fall short.
const hatchContrastJS = `(() => {
	const rgba = c => c.match(/[\d.]+/g).map(Number);
	const over = (f, b) => { const a = f.length > 3 ? f[3] : 1; return [0, 1, 2].map(i => f[i] * a + b[i] * (1 - a)); };
	const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
		return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
	const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
	const out = [];
	for (const td of document.querySelectorAll('td.cell, td.ratio')) {
		const cs = getComputedStyle(td);
		if (!cs.backgroundImage.includes('gradient')) continue;
		const ground = rgba(cs.backgroundColor), stripes = (cs.backgroundImage.match(/rgba?\([^)]*\)/g) || []).map(c => over(rgba(c), ground));
		for (const el of td.querySelectorAll('span, p')) {
			const fg = rgba(getComputedStyle(el).color);
			const worst = Math.min(...stripes.map(s => ratio(over(fg, s), s)));
			if (worst < 4.5) out.push((td.id || td.dataset.status) + ' ' + el.className + ' ' + worst.toFixed(2) + ':1');
		}
	}
	return out.slice(0, 5);
})()`

// pageWatch collects what a reader's console would show: errors logged by
// the page or the browser, uncaught exceptions, failed requests and answers
// of 400 or more. The document's own status is kept apart (the not-found
// page is meant to answer 404).
type pageWatch struct {
	mu       sync.Mutex
	urls     map[network.RequestID]string
	problems []string
	docURL   string
	docCode  int64
}

func (w *pageWatch) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		w.urls[e.RequestID] = e.Request.URL
	case *network.EventResponseReceived:
		if e.Type == network.ResourceTypeDocument {
			w.docURL, w.docCode = e.Response.URL, e.Response.Status
		} else if e.Response.Status >= 400 {
			w.problems = append(w.problems, fmt.Sprintf("%s answered %d", e.Response.URL, e.Response.Status))
		}
	case *network.EventLoadingFailed:
		if !e.Canceled {
			w.problems = append(w.problems, fmt.Sprintf("%s failed: %s %s", w.urls[e.RequestID], e.ErrorText, e.BlockedReason))
		}
	case *cdplog.EventEntryAdded:
		// The browser logs a document's 4xx too; its status is checked apart.
		if e.Entry.Level == cdplog.EntryLevelError && e.Entry.URL != w.docURL {
			w.problems = append(w.problems, fmt.Sprintf("console (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL))
		}
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			w.problems = append(w.problems, fmt.Sprintf("console.%s called", e.Type))
		}
	case *runtime.EventExceptionThrown:
		w.problems = append(w.problems, "uncaught: "+e.ExceptionDetails.Text)
	}
}

// take returns and forgets what was collected since the last call.
func (w *pageWatch) take() (problems []string, docCode int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	problems, docCode = w.problems, w.docCode
	w.problems, w.docCode = nil, 0
	return problems, docCode
}

// newWatchedTab opens the tab the audit reuses for every page, with a
// watch on its events from the first one on.
func newWatchedTab(t *testing.T, browser context.Context) (context.Context, *pageWatch) {
	t.Helper()
	w := &pageWatch{urls: map[network.RequestID]string{}}
	return newTabFor(t, browser, a11yLife, chromedp.WithListener(w.listen)), w
}

// phoneRules are the rules whose outcome can change with the width: the
// stylesheet's narrow-screen rules change only sizes, spacing and which
// tables scroll, so contrast, target size and the focusability of a
// scrolling region are what a phone can break after the desktop passed.
const phoneRules = `{type: 'rule', values: ['color-contrast', 'target-size', 'scrollable-region-focusable']}`

// contrastRule is the only rule the dark scheme can change: it changes
// colours and nothing else.
const contrastRule = `{type: 'rule', values: ['color-contrast']}`

// auditPage loads url once at desktop width and runs every axe rule in the
// light scheme and the contrast rule in the dark one; then it narrows the
// same page to a phone, checks that it does not scroll sideways, and runs
// the rules a width can change, light and dark. It returns the number of
// axe runs.
func auditPage(t *testing.T, tab context.Context, w *pageWatch, axe, origin, url string, status int) int {
	ctx, cancel := context.WithTimeout(tab, pageTimeout)
	defer cancel()
	desktop := shotViewport{width: 1280, height: 900, scale: 1}
	cdpDo(t, ctx, "viewport", emulate(desktop), colourScheme("light"))
	w.take()
	cdpDo(t, ctx, "open "+url, chromedp.Navigate(origin+url))
	return auditHere(t, ctx, w, axe, url, status, nil)
}

// auditHere is auditPage on the page the tab shows, however it got there
// (a form's answer, a page a script rewrote). A request whose problem
// expected accepts is part of the page's story (a refused upload's 422),
// not a fault.
func auditHere(t *testing.T, ctx context.Context, w *pageWatch, axe, url string, status int, expected func(string) bool) int {
	cdpDo(t, ctx, "viewport", emulate(shotViewport{width: 1280, height: 900, scale: 1}), colourScheme("light"))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](axe)); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	runs := []struct {
		where, scheme, rules string
		vp                   *shotViewport
	}{
		{"1280 px light", "light", "{type: 'tag', values: " + axeTags + "}", nil},
		{"1280 px dark", "dark", contrastRule, nil},
		{"360 px dark", "dark", contrastRule, &shotViewport{width: phoneWidth, height: 800, scale: 1, mobile: true}},
		{"360 px light", "light", phoneRules, nil},
	}
	for _, r := range runs {
		if r.vp != nil {
			cdpDo(t, ctx, "phone", emulate(*r.vp))
			if over := cdpRun(t, ctx, "width", chromedp.Evaluate[string](overflowJS)); over != "" {
				t.Errorf("scrolls sideways: %s", over)
			}
		}
		cdpDo(t, ctx, r.scheme, colourScheme(r.scheme))
		for _, v := range cdpRun(t, ctx, "axe "+r.where, chromedp.Evaluate[[]string](fmt.Sprintf(axeRunJS, r.rules), chromedp.EvalAwaitPromise)) {
			t.Errorf("%s: %s", r.where, v)
		}
		for _, v := range cdpRun(t, ctx, "hatched cells", chromedp.Evaluate[[]string](hatchContrastJS)) {
			t.Errorf("%s: text on a hatched cell below 4.5:1: %s", r.where, v)
		}
	}
	problems, code := w.take()
	if code != int64(status) {
		t.Errorf("%s answered %d, want %d", url, code, status)
	}
	for _, p := range problems {
		if expected == nil || !expected(p) {
			t.Errorf("%s", strings.TrimSpace(p))
		}
	}
	return len(runs)
}

// colourScheme emulates prefers-color-scheme.
func colourScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// TestAccessibilityUpload audits every state of an upload: the empty form,
// a refused file (the script's answer in place of the form), the preview,
// a refused publication, the form after a discarded preview, in English;
// with A11Y_UPLOAD_ALL=1 the preview, which carries most of the new words,
// in every language too (each audit of its long report costs seconds on a
// busy machine; the templates' render test renders it in every language). The preview lives behind the browser's cookie, so it is
// reached by uploading in the audit's own tab.
func TestAccessibilityUpload(t *testing.T) {
	axe := readAxe(t)
	browser := newBrowserFor(t, a11yLife)
	s := webtest.NewSite(t)
	seed, err := filepath.Abs(webtest.Path("internal/demo/runs/seed-rtx3060.bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	notJSON := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notJSON, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The script's request answered 400: that is the refusal audited.
	refusedXHR := func(p string) bool { return strings.Contains(p, "/upload") && strings.Contains(p, "400") }
	for _, lang := range i18n.Languages {
		if lang.Tag != "en" && os.Getenv("A11Y_UPLOAD_ALL") == "" {
			continue // the preview in every language: A11Y_UPLOAD_ALL=1 (about 10 s more)
		}
		t.Run(lang.Tag, func(t *testing.T) {
			tab, w := newWatchedTab(t, browser)
			ctx, cancel := context.WithTimeout(tab, 4*pageTimeout)
			defer cancel()
			form := withLang("/upload", lang.Tag)
			if lang.Tag == "en" {
				auditPage(t, ctx, w, axe, s.URL, form, 200)
				auditPage(t, ctx, w, axe, s.URL, withLang("/upload?discarded=1", lang.Tag), 200)
				cdpDo(t, ctx, "upload a file that is not JSON", chromedp.Navigate(s.URL+form),
					chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{notJSON}),
					chromedp.Click(chromedp.CSS("#upload-submit")), chromedp.WaitReady(chromedp.CSS("#upload-errors")))
				auditHere(t, ctx, w, axe, "refused upload", 200, refusedXHR)
			}
			cdpDo(t, ctx, "upload the seed file", chromedp.Navigate(s.URL+form),
				chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{seed}),
				chromedp.Click(chromedp.CSS("#upload-submit")), chromedp.WaitReady(chromedp.CSS("#draft-form")))
			preview, _ := url.Parse(cdpRun(t, ctx, "location", chromedp.Location()))
			auditPage(t, ctx, w, axe, s.URL, withLang(preview.Path, lang.Tag), 200)
			if lang.Tag != "en" {
				return
			}
			cdpDo(t, ctx, "publish a bad number", chromedp.SendKeys(chromedp.CSS("#f-gpu_count"), "two"),
				chromedp.Click(chromedp.CSS("#draft-publish")), chromedp.WaitReady(chromedp.CSS("#upload-errors")))
			auditHere(t, ctx, w, axe, "refused publication", 422, nil)
		})
	}
}
