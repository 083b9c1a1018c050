package browser_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// calcBoundJS reads the result's first bound line (all requests).
const calcBoundJS = `document.querySelector('#calc-bound dd')?.innerText || ''`

// TestBrowserCalculator is a reader's path in a real browser: fill the
// calculator's form for the worked example, read the bound, follow the
// result's own link in a fresh tab and find the same result with the form
// filled in, then paste a config.json in place of the model. With
// SCREENSHOTS=dir the result and the docs are saved at desktop and phone
// widths.
func TestBrowserCalculator(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	tab := newTab(t, browser)

	cdpDo(t, tab, "open the calculator from the header", chromedp.Navigate(s.URL+"/"),
		chromedp.Click(chromedp.CSS(`header nav a[href="/calculator"]`)),
		chromedp.WaitReady(chromedp.CSS("#calc-form")),
		chromedp.SetValue(chromedp.CSS("#calc-gpu"), "rtx-3060-12gb"),
		chromedp.SetValue(chromedp.CSS("#calc-model"), "Qwen/Qwen3.5-4B"),
		chromedp.SetValue(chromedp.CSS("#calc-weights"), "fp8"),
		chromedp.SetValue(chromedp.CSS("#calc-kv"), "int4"),
		chromedp.Click(chromedp.CSS(`#calc-form button[type="submit"]`)),
		chromedp.WaitReady(chromedp.CSS("#calc-bound")),
	)
	if got := cdpRun(t, tab, "bound", chromedp.Evaluate[string](calcBoundJS)); got != "72.8 tok/s" {
		t.Errorf("bound reads %q, want 72.8 tok/s", got)
	}
	loc := cdpRun(t, tab, "location", chromedp.Location())
	if !strings.Contains(loc, "gpu=rtx-3060-12gb") || !strings.Contains(loc, "kv=int4") {
		t.Errorf("result at %s, want the form in the address", loc)
	}
	link := cdpRun(t, tab, "result link", chromedp.Evaluate[string](`document.querySelector('#calc-link').href`))

	// With JavaScript the result follows the form as it changes, and so
	// does the address: a longer context reads more KV cache a step, so
	// the bound falls, without the button.
	cdpDo(t, tab, "type a context",
		chromedp.SetValue(chromedp.CSS("#calc-context"), ""),
		chromedp.SendKeys(chromedp.CSS("#calc-context"), "32768"),
	)
	got := cdpRun(t, tab, "bound at 32K", chromedp.Poll[string](`(() => { const b = `+calcBoundJS+
		`; return location.search.includes('context=32768') && b !== '' && b !== '72.8 tok/s' ? b : null })()`,
		chromedp.WithPollingTimeout(10*time.Second)))
	if !strings.HasSuffix(got, " tok/s") {
		t.Errorf("bound after typing a context reads %q, want a lower one", got)
	}
	if n := cdpRun(t, tab, "results", chromedp.Evaluate[int](`document.querySelectorAll('#calc-out').length + document.querySelectorAll('#calc-form').length`)); n != 2 {
		t.Errorf("after recomputing the page has %d result or form blocks, want one of each", n)
	}

	linked := newTab(t, browser)
	cdpDo(t, linked, "open the linked result", chromedp.Navigate(link), chromedp.WaitReady(chromedp.CSS("#calc-bound")))
	if got := cdpRun(t, linked, "linked bound", chromedp.Evaluate[string](calcBoundJS)); got != "72.8 tok/s" {
		t.Errorf("the linked result reads %q, want 72.8 tok/s", got)
	}
	form := cdpRun(t, linked, "form values", chromedp.Evaluate[string](
		`['gpu','model','weights','kv'].map(n => document.querySelector('#calc-' + n).value).join(' ')`))
	if form != "rtx-3060-12gb Qwen/Qwen3.5-4B fp8 int4" {
		t.Errorf("the linked form shows %q", form)
	}

	cfg := `{"hidden_size":4096,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"intermediate_size":14336,"vocab_size":128256}`
	cdpDo(t, linked, "paste a config",
		chromedp.SetValue(chromedp.CSS("#calc-weights"), "bf16"),
		chromedp.SetValue(chromedp.CSS("#calc-kv"), "bf16"),
		chromedp.SetValue(chromedp.CSS("#calc-config"), cfg),
		chromedp.Click(chromedp.CSS(`#calc-form button[type="submit"]`)),
		// The page before had FP8 chosen: this waits for the new one.
		chromedp.WaitReady(chromedp.CSS(`#calc-weights option[value="bf16"][selected]`)),
	)
	if h := cdpRun(t, linked, "heading", chromedp.Text(chromedp.CSS("#h-result"))); !strings.Contains(h, "the pasted model") {
		t.Errorf("pasted config's heading %q", h)
	}
	// Llama-3.1-8B in BF16 reads 15.0 GB a step (the input embedding is
	// only looked up) at 360 GB/s: at most 24.0 tok/s.
	if got := cdpRun(t, linked, "pasted bound", chromedp.Evaluate[string](calcBoundJS)); got != "24.0 tok/s" {
		t.Errorf("pasted config's bound %q, want 24.0 tok/s", got)
	}
	if dir := os.Getenv("SCREENSHOTS"); dir != "" {
		shootCalculator(t, browser, dir, link, s.URL)
	}
}

func shootCalculator(t *testing.T, browser context.Context, dir, link, origin string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link, _, _ = strings.Cut(link, "#")
	for _, vp := range shotViewports {
		for name, u := range map[string]string{"result-en": link, "result-ja": link + "&lang=ja",
			"result-zh": link + "&lang=zh-Hans", "docs-en": origin + "/docs/calculator", "docs-ja": origin + "/docs/calculator?lang=ja"} {
			tab := newTab(t, browser)
			cdpDo(t, tab, "viewport", emulate(vp), chromedp.Navigate(u), chromedp.WaitReady(chromedp.CSS("main")))
			saveShot(t, dir, fmt.Sprintf("calc-%s-%s.png", name, vp.name), cdpRun(t, tab, "screenshot", fullPage()))
			t.Logf("%s %s: %s", name, vp.name, cdpRun(t, tab, "layout facts", chromedp.Evaluate[string](layoutFactsJS)))
		}
	}
}
