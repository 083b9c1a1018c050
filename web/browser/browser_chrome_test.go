package browser_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// debianChromium is Debian's binary; /usr/bin/chromium is a wrapper script
// around it that adds flags of its own.
const debianChromium = "/usr/lib/chromium/chromium"

// browserTimeout bounds the whole browser's life: every subtest that shares
// it runs inside this time, and the browser is killed when it ends.
const browserTimeout = 60 * time.Second

// tabTimeout bounds the actions of one tab (one subtest).
const tabTimeout = 20 * time.Second

// chromiumPath finds Chromium, or returns "".
func chromiumPath() string {
	if fi, err := os.Stat(debianChromium); err == nil && !fi.IsDir() {
		return debianChromium
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// newBrowser starts one headless Chromium for t and its subtests and
// returns its context; tabs are made with newTab. Without Chromium the test
// fails under CI (CI set) and is skipped elsewhere.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	return newBrowserFor(t, browserTimeout)
}

// newBrowserFor is newBrowser for a test that needs the browser longer
// than browserTimeout (the accessibility audit visits every page).
func newBrowserFor(t *testing.T, life time.Duration) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("Chromium not found (%s, or chromium on PATH): CI must run the browser tests (apt-get install -y chromium)", debianChromium)
		}
		t.Skipf("Chromium not found (%s, or chromium on PATH); install it (apt-get install -y chromium) to run the browser tests", debianChromium)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root in containers and CI
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("lang", "en-US"), // Accept-Language, whatever the machine's locale
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	lifeCtx, cancelLife := context.WithTimeout(context.Background(), life)
	alloc, cancelAlloc := chromedp.NewExecAllocator(lifeCtx, opts...)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	// Cleanups run last-in first-out: the browser stops before the temp
	// dir (registered above) is removed.
	t.Cleanup(func() {
		cancelBrowser()
		cancelAlloc()
		cancelLife()
	})
	start := time.Now()
	if err := chromedp.Do(browser); err != nil { // starts the browser
		t.Fatalf("start Chromium (%s): %v", path, err)
	}
	t.Logf("Chromium started in %v", time.Since(start).Round(time.Millisecond))
	return browser
}

// newTab opens a tab of the shared browser in a browser context of its own
// (its own cookies), bounded by tabTimeout, closed when t ends.
func newTab(t *testing.T, browser context.Context, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	return newTabFor(t, browser, tabTimeout, opts...)
}

// newTabFor is newTab with its own time bound and context options (a
// listener for the tab's events).
func newTabFor(t *testing.T, browser context.Context, timeout time.Duration, opts ...chromedp.ContextOption) context.Context {
	t.Helper()
	tab, cancelTab := chromedp.NewContext(browser, append([]chromedp.ContextOption{chromedp.WithNewBrowserContext()}, opts...)...)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tab); err != nil { // opens the tab without tying it to the timeout
		t.Fatalf("open tab: %v", err)
	}
	ctx, cancel := context.WithTimeout(tab, timeout)
	t.Cleanup(cancel)
	return ctx
}

// cdpRun is chromedp.Run that fails t on error.
func cdpRun[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

// cdpDo is chromedp.Do that fails t on error.
func cdpDo(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}
