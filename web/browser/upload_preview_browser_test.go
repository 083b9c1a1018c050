package browser_test

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestBrowserUploadPreview uploads in the three steps a person takes: the
// seed run's file dropped on the drop zone (a real drag and drop, with the
// progress bar's words), its preview with every cell and prefill row and
// only the missing fields open, the hardware filled in, published to its
// report; a three-file vLLM sweep chosen in the file input the same way;
// and the seed file again with JavaScript off, through the plain form.
func TestBrowserUploadPreview(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	en := b.Localizer("en")
	seed, err := filepath.Abs(webtest.Path("internal/demo/runs/seed-rtx3060.bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	var seedRun string
	t.Run("seed dropped", func(t *testing.T) {
		tab := newTab(t, browser)
		cdpDo(t, tab, "open the upload page", chromedp.Navigate(s.URL+"/upload?lang=en"), chromedp.WaitReady(chromedp.CSS("#drop-zone")))
		// The progress bar's spoken words, kept across the navigation.
		cdpRun(t, tab, "watch the status", chromedp.Evaluate[chromedp.Void](`new MutationObserver(() =>
			sessionStorage.setItem('said', (sessionStorage.getItem('said') || '') + '|' + document.getElementById('upload-status').textContent)
		).observe(document.getElementById('upload-status'), {childList: true, characterData: true, subtree: true})`))
		dropFiles(t, tab, "#drop-zone", []string{seed})
		if names := cdpRun(t, tab, "chosen files", chromedp.Text(chromedp.CSS("#drop-zone .chosen"))); !strings.Contains(names, "seed-rtx3060.bench.json") {
			t.Fatalf("after the drop the zone lists %q, want the dropped file", names)
		}
		cdpDo(t, tab, "upload", chromedp.Click(chromedp.CSS("#upload-submit")), chromedp.WaitReady(chromedp.CSS("#draft-form")))
		said := cdpRun(t, tab, "progress words", chromedp.Evaluate[string](`sessionStorage.getItem('said') || ''`))
		if !strings.Contains(said, "100%") || !strings.Contains(said, en.T("upload.reading", nil)) {
			t.Errorf("the progress status said %q, want 100%% and %q", said, en.T("upload.reading", nil))
		}
		checkSeedPreview(t, tab, en)
		seedRun = fillAndPublish(t, tab, map[string]string{"#f-gpu_name": "RTX 3060", "#f-vram_gb": "12",
			"#f-model_id": "RedHatAI/Qwen3.5-4B-FP8-dynamic"})
		if h1 := cdpRun(t, tab, "h1", chromedp.Text(chromedp.CSS("h1"))); !strings.Contains(h1, "RTX 3060 12GB") {
			t.Errorf("the published report's h1 = %q, want the typed GPU", h1)
		}
	})

	t.Run("sweep of three files", func(t *testing.T) { previewSweep(t, browser, s, seedRun) })

	t.Run("without JavaScript", func(t *testing.T) {
		tab := newTab(t, browser)
		cdpDo(t, tab, "switch JavaScript off", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		cdpDo(t, tab, "choose the file and upload",
			chromedp.Navigate(s.URL+"/upload?lang=en"),
			chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{seed}),
			chromedp.Click(chromedp.CSS("#upload-submit")),
			chromedp.WaitReady(chromedp.CSS("#draft-form")),
		)
		if js := cdpRun(t, tab, "drop zone untouched", chromedp.Evaluate[int](`document.querySelectorAll('#drop-zone .chosen').length`)); js != 0 {
			t.Errorf("the drop zone script ran with JavaScript off")
		}
		checkSeedPreview(t, tab, en)
		// The same document as the first subtest: publishing leads to
		// that run, as the API's 200 does.
		id := fillAndPublish(t, tab, map[string]string{"#f-gpu_name": "RTX 3060", "#f-vram_gb": "12",
			"#f-model_id": "RedHatAI/Qwen3.5-4B-FP8-dynamic"})
		if seedRun != "" && id != seedRun {
			t.Errorf("publishing the same document again made run %s, want the existing %s", id, seedRun)
		}
	})
}

// checkSeedPreview reads the seed file's preview: marked as not published,
// all 48 cells and 5 prefill rows, the hardware fields open, the file's
// engine behind the "change" disclosure.
func checkSeedPreview(t *testing.T, tab context.Context, en *i18n.Localizer) {
	t.Helper()
	loc, _ := url.Parse(cdpRun(t, tab, "location", chromedp.Location()))
	if loc == nil || !strings.HasPrefix(loc.Path, "/upload/drafts/") || len(strings.TrimPrefix(loc.Path, "/upload/drafts/")) != 26 {
		t.Errorf("the preview is at %v, want /upload/drafts/ and a 26-character id", loc)
	}
	if title := cdpRun(t, tab, "title", chromedp.Title()); !strings.HasPrefix(title, en.T("draft.banner", nil)) {
		t.Errorf("preview title %q, want it to start with %q", title, en.T("draft.banner", nil))
	}
	if n := cdpRun(t, tab, "cells", chromedp.Evaluate[int](`document.querySelectorAll('table.grid td[data-status]').length`)); n != 48 {
		t.Errorf("the preview's grid has %d cells, want 48 (6 contexts × 8 concurrencies)", n)
	}
	if n := cdpRun(t, tab, "prefill", chromedp.Evaluate[int](`document.querySelectorAll('#prefill li').length`)); n != 5 {
		t.Errorf("the preview shows %d prefill rows, want 5", n)
	}
	open := cdpRun(t, tab, "open fields", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#draft-form input, #draft-form select, #draft-form textarea')].filter(e => !e.closest('details')).map(e => e.name)`))
	for _, want := range []string{"hardware_type", "gpu_name", "gpu_count", "vram_gb", "cpu_name", "model_id"} {
		if !strings.Contains(strings.Join(open, " "), want) {
			t.Errorf("open fields %v lack %s, which the file does not say", open, want)
		}
	}
	if v := cdpRun(t, tab, "engine behind change", chromedp.Evaluate[string](
		`(document.querySelector('details.change [name="engine_name"]') || {value: ''}).value`)); v != "vllm" {
		t.Errorf("the file's engine behind the change disclosure = %q, want vllm", v)
	}
	if n := cdpRun(t, tab, "live links", chromedp.Evaluate[int](`document.querySelectorAll('#downloads, a[href*="/source"]').length`)); n != 0 {
		t.Errorf("the preview links %d downloads of a run that does not exist yet", n)
	}
}

// fillAndPublish types into the preview's fields, presses Publish and
// returns the id of the report it lands on, with the Share panel in view.
func fillAndPublish(t *testing.T, tab context.Context, values map[string]string) string {
	t.Helper()
	for sel, v := range values {
		cdpDo(t, tab, "type "+sel, chromedp.SendKeys(chromedp.CSS(sel), v))
	}
	cdpDo(t, tab, "publish", chromedp.Click(chromedp.CSS("#draft-publish")), chromedp.WaitReady(chromedp.CSS("#share")))
	u, _ := url.Parse(cdpRun(t, tab, "location", chromedp.Location()))
	id, ok := strings.CutPrefix(u.Path, "/runs/")
	if !ok || id == "" || u.Fragment != "share" {
		t.Fatalf("after publishing the browser is at %v, want /runs/{id}#share", u)
	}
	return id
}

// dropFiles drags files from outside the page onto the element sel, as a
// person dropping them from a file manager does.
func dropFiles(t *testing.T, tab context.Context, sel string, files []string) {
	t.Helper()
	pos := cdpRun(t, tab, "where to drop", chromedp.Evaluate[[]float64](`(() => {
		const e = document.querySelector(`+"`"+sel+"`"+`); e.scrollIntoView({block: 'center'});
		const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]})()`))
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: files, DragOperationsMask: 1}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		cdpDo(t, tab, "drag "+string(typ), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: pos[0], Y: pos[1], Data: data})
			return err
		}))
	}
}

// previewSweep publishes three files of a vLLM sweep through the file
// input: one preview with a cell per file, the files' GPU behind the
// change disclosure, one report.
func previewSweep(t *testing.T, browser context.Context, s *webtest.Site, seedRun string) {
	tab := newTab(t, browser)
	files := formatstest.VLLMSweep(t, webtest.SweepModel, []int{4000}, []int{1, 2, 4})
	cdpDo(t, tab, "choose three files and upload",
		chromedp.Navigate(s.URL+"/upload?lang=en"),
		chromedp.SetUploadFiles(chromedp.CSS("#f-file"), writeFiles(t, files)),
		chromedp.Click(chromedp.CSS("#upload-submit")),
		chromedp.WaitReady(chromedp.CSS("#draft-form")),
	)
	if n := cdpRun(t, tab, "cells", chromedp.Evaluate[int](`document.querySelectorAll('table.grid td[data-status="valid"]').length`)); n != 3 {
		t.Errorf("the sweep's preview shows %d valid cells, want 3 (one per file)", n)
	}
	// The files name their GPU: it waits behind the disclosure.
	if v := cdpRun(t, tab, "GPU behind change", chromedp.Evaluate[string](
		`(document.querySelector('details.change [name="gpu_name"]') || {value: ''}).value`)); v != "H100" {
		t.Errorf("the files' GPU behind the change disclosure = %q, want H100", v)
	}
	id := fillAndPublish(t, tab, map[string]string{"#f-vram_gb": "80", "#f-engine_version": "0.11.0"})
	main := cdpRun(t, tab, "main", chromedp.Text(chromedp.CSS("main")))
	if id == seedRun || !strings.Contains(main, "Llama-3.1-8B-Instruct") || !strings.Contains(main, "0.11.0") || !strings.Contains(main, "H100 80GB") {
		t.Errorf("the sweep's report (%s) lacks its model or the typed version", id)
	}
}
