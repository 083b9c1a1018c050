package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// cspWatchJS runs before any of a page's own code (DevTools scripts are not
// subject to the policy) and keeps every securitypolicyviolation event,
// the browser's own report of what the Content-Security-Policy blocked.
const cspWatchJS = `window.__csp = [];
document.addEventListener('securitypolicyviolation', e =>
	window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sample || '')));`

// cspProbeJS injects an inline style attribute and an inline script, both
// of which the policy must refuse, to prove the watch sees violations.
const cspProbeJS = `(() => {
	const d = document.createElement('div'); d.innerHTML = '<p style="color:red">x</p>';
	document.body.appendChild(d);
	const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.appendChild(s);
	return new Promise(r => setTimeout(() => r(window.__ran === 1 ? ['inline script ran'] : window.__csp), 200));
})()`

// TestBrowserCSP opens every page of the route table (a11yPages) in
// Chromium and fails when the browser reports a Content-Security-Policy
// violation or any console error: the policy without 'unsafe-inline'
// blocks nothing the pages need. A probe on the last page checks that the
// watch would have seen one.
func TestBrowserCSP(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	pages := a11yPages(t, s)
	tab, w := newWatchedTab(t, browser)
	cdpDo(t, tab, "watch violations", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatchJS})
		return err
	}))
	for _, p := range pages {
		ctx, cancel := context.WithTimeout(tab, time.Minute)
		w.take()
		cdpDo(t, ctx, "open "+p.path, chromedp.Navigate(s.URL+p.path))
		for _, v := range cdpRun(t, ctx, "violations", chromedp.Evaluate[[]string](`window.__csp || ['watch missing']`)) {
			t.Errorf("%s: blocked by the policy: %s", p.path, v)
		}
		problems, code := w.take()
		if code != int64(p.status) {
			t.Errorf("%s answered %d, want %d", p.path, code, p.status)
		}
		for _, pr := range problems {
			t.Errorf("%s: %s", p.path, strings.TrimSpace(pr))
		}
		cancel()
	}
	got := cdpRun(t, tab, "probe", chromedp.Evaluate[[]string](cspProbeJS, chromedp.EvalAwaitPromise))
	if len(got) < 2 || !strings.Contains(strings.Join(got, "\n"), "style-src-attr") || !strings.Contains(strings.Join(got, "\n"), "script-src") {
		t.Errorf("probe: the policy let inline style or script through, or the watch missed it: %q", got)
	}
}
