package browser_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/formats/formatstest"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// writeFiles puts files in a fresh directory and returns their paths.
func writeFiles(t *testing.T, files []archive.File) []string {
	t.Helper()
	dir := t.TempDir()
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(dir, f.Name)
		if err := os.WriteFile(paths[i], f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return paths
}

// TestBrowserSweep chooses the twelve files of a vLLM sweep in the upload
// form's file input at once and publishes their preview: the report shows
// one 3 × 4 grid with each
// file's number in its cell. Twelve files with one of another model are
// refused, the message beside the file input naming that file.
func TestBrowserSweep(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	files := formatstest.VLLMSweep(t, webtest.SweepModel, webtest.SweepPrompts, webtest.SweepConcs)

	t.Run("one run", func(t *testing.T) {
		tab := newTab(t, browser)
		cdpDo(t, tab, "choose twelve files, preview, type the version and publish",
			chromedp.Navigate(s.URL+"/upload"),
			chromedp.SetUploadFiles(chromedp.CSS("#f-file"), writeFiles(t, files)),
			chromedp.Click(chromedp.CSS("#upload-submit")),
			chromedp.WaitReady(chromedp.CSS("#draft-form")),
			chromedp.SendKeys(chromedp.CSS("#f-engine_version"), "0.11.0"),
			chromedp.Click(chromedp.CSS("#draft-publish")),
			chromedp.WaitReady(chromedp.CSS("#share")),
		)
		cells := cdpRun(t, tab, "grid cells", chromedp.Evaluate[[]browserCell](gridCellsJS))
		if len(cells) != 12 {
			t.Fatalf("grid has %d cells, want 3 × 4: %+v", len(cells), cells)
		}
		at := map[string]browserCell{}
		for _, c := range cells {
			at[c.Context+"x"+c.Concurrency] = c
		}
		for _, p := range webtest.SweepPrompts {
			for _, c := range webtest.SweepConcs {
				key := strconv.Itoa(webtest.SweepCtx[p]) + "x" + strconv.Itoa(c)
				// TotalTPS is 100 × concurrency + prompt/1000: its
				// integer part is on the cell whatever the rounding.
				want := strconv.Itoa(100*c + p/1000)
				if cell, ok := at[key]; !ok || cell.Status != "valid" || !strings.Contains(strings.ReplaceAll(cell.Text, ",", ""), want) {
					t.Errorf("cell %s = %+v, want valid showing %s", key, cell, want)
				}
			}
		}
		main := cdpRun(t, tab, "main text", chromedp.Text(chromedp.CSS("main")))
		if !strings.Contains(main, "0.11.0") || !strings.Contains(main, "Llama-3.1-8B-Instruct") {
			t.Errorf("the report lacks the model or the typed engine version")
		}
	})

	t.Run("mixed models refused", func(t *testing.T) {
		tab := newTab(t, browser)
		odd := formatstest.VLLMSweep(t, "Qwen/Qwen3-8B", []int{4000}, []int{2})[0]
		odd.Name = "qwen-run.json"
		mixed := append(append([]archive.File{}, files[:11]...), odd)
		cdpDo(t, tab, "choose eleven files and one of another model",
			chromedp.Navigate(s.URL+"/upload"),
			chromedp.SetUploadFiles(chromedp.CSS("#f-file"), writeFiles(t, mixed)),
			chromedp.Click(chromedp.CSS("#upload-submit")),
			chromedp.WaitReady(chromedp.CSS("#f-file-error")),
		)
		msg := cdpRun(t, tab, "file error", chromedp.Text(chromedp.CSS("#f-file-error")))
		if !strings.Contains(msg, "qwen-run.json") || !strings.Contains(msg, "Qwen/Qwen3-8B") {
			t.Errorf("the error beside the file input = %q, want it to name qwen-run.json and its model", msg)
		}
	})
}
