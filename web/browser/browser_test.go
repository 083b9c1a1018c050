package browser_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// browserCell is a decode grid cell as the browser shows it.
type browserCell struct {
	Status      string `json:"status"`
	Context     string `json:"context"`
	Concurrency string `json:"concurrency"`
	Text        string `json:"text"` // innerText: what a reader sees
}

// gridCellsJS reads every grid cell in one round trip.
const gridCellsJS = `Array.from(document.querySelectorAll('table.grid td')).map(td => ({
	status: td.dataset.status || '', context: td.dataset.context || '',
	concurrency: td.dataset.concurrency || '', text: td.innerText}))`

// aNumber is a tok/s figure as the grid prints it: 63.5, 1,234.5.
var aNumber = regexp.MustCompile(`\d[\d,.]*`)

// TestBrowser drives a real headless Chromium through the site: the upload
// form, the report grid, the language switcher and its cookie, and a refused
// upload. One browser serves every subtest.
func TestBrowser(t *testing.T) {
	browser := newBrowser(t) // before the database: a skip costs nothing
	s := webtest.NewSite(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	en, ja := b.Localizer("en"), b.Localizer("ja")

	// Steps 1–4 are one reader's visit: one tab, one cookie jar.
	tab := newTab(t, browser)
	var runID string
	t.Run("upload", func(t *testing.T) { runID = browserUpload(t, tab, s, en) })
	// The next steps read the uploaded run: without it (upload failed, or
	// -run left it out) they skip; a failed upload already failed the test.
	withRun := func(step func(t *testing.T)) func(t *testing.T) {
		return func(t *testing.T) {
			if runID == "" {
				t.Skip("needs the run of the upload subtest")
			}
			step(t)
		}
	}
	t.Run("grid", withRun(func(t *testing.T) { browserGrid(t, tab, en) }))
	t.Run("japanese", withRun(func(t *testing.T) { browserJapanese(t, tab, runID, en, ja) }))
	t.Run("cookie", withRun(func(t *testing.T) { browserCookie(t, tab, s, runID, ja) }))
	// A new reader: no language cookie.
	t.Run("refused upload", func(t *testing.T) { browserRefusedUpload(t, newTab(t, browser), s, en) })
	t.Run("screenshots", func(t *testing.T) {
		dir := os.Getenv("SCREENSHOTS")
		if dir == "" {
			t.Skip("set SCREENSHOTS=dir to save full-page screenshots")
		}
		saveScreenshots(t, browser, s, dir)
	})
}

// browserUpload uploads a file, fills the preview's missing fields,
// publishes, checks the report it leads to and returns the new run's id.
func browserUpload(t *testing.T, tab context.Context, s *webtest.Site, en *i18n.Localizer) string {
	file, err := filepath.Abs(webtest.Path("testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json"))
	if err != nil {
		t.Fatal(err)
	}
	cdpDo(t, tab, "upload the file, fill the preview's fields and publish",
		chromedp.Navigate(s.URL+"/upload"),
		chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{file}),
		chromedp.Click(chromedp.CSS("#upload-submit")),
		chromedp.WaitReady(chromedp.CSS("#draft-form")),
		// The file names its GPU (an H100): the reader overrides it
		// behind the "change" disclosure, and fills in the open CPU field.
		chromedp.Click(chromedp.CSS("details.change summary")),
		chromedp.SetValue(chromedp.CSS("#f-gpu_name"), "RTX 4090"),
		chromedp.SetValue(chromedp.CSS("#f-vram_gb"), "24"),
		chromedp.SendKeys(chromedp.CSS("#f-cpu_name"), "Ryzen 9 7950X"),
		chromedp.Click(chromedp.CSS("#draft-publish")),
		chromedp.WaitReady(chromedp.CSS("#share")),
	)
	loc := cdpRun(t, tab, "location", chromedp.Location())
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	id, ok := strings.CutPrefix(u.Path, "/runs/")
	if !ok || id == "" || strings.Contains(id, "/") {
		t.Fatalf("after upload the browser is at %s, want /runs/{id}", loc)
	}
	h1 := cdpRun(t, tab, "h1", chromedp.Text(chromedp.CSS("h1")))
	want := en.T("run.title", map[string]any{"Model": "Qwen3-30B-A3B-FP8", "Hardware": "RTX 4090 24GB"})
	if strings.TrimSpace(h1) != want {
		t.Errorf("h1 = %q, want %q", h1, want)
	}
	body := cdpRun(t, tab, "body text", chromedp.Text(chromedp.CSS("main")))
	if !strings.Contains(body, "0.11.0") || !strings.Contains(body, "Ryzen 9 7950X") {
		t.Errorf("the file's engine version 0.11.0 or the typed CPU is not on the report")
	}
	return id
}

// browserGrid reads the uploaded run's grid: the statuses and the numbers.
func browserGrid(t *testing.T, tab context.Context, en *i18n.Localizer) {
	cells := cdpRun(t, tab, "grid cells", chromedp.Evaluate[[]browserCell](gridCellsJS))
	if len(cells) != 10 {
		t.Fatalf("grid has %d cells, want 10 (contexts 0, 16K × concurrency 1, 2, 4, 8, 16): %+v", len(cells), cells)
	}
	at := map[string]browserCell{}
	valid := 0
	for _, c := range cells {
		at[c.Context+"x"+c.Concurrency] = c
		if c.Status == "valid" {
			valid++
			if !aNumber.MatchString(c.Text) {
				t.Errorf("valid cell %s×%s shows no number: %q", c.Context, c.Concurrency, c.Text)
			}
		}
	}
	if c := at["0x16"]; c.Status != "queued" || !strings.Contains(c.Text, en.T("status.queued", nil)) {
		t.Errorf("cell 0×16 = %+v, want status queued showing %q", c, en.T("status.queued", nil))
	}
	if c := at["16384x16"]; c.Status != "over_capacity" {
		t.Errorf("cell 16384×16 = %+v, want status over_capacity", c)
	}
	if c := at["0x1"]; c.Status != "valid" {
		t.Errorf("cell 0×1 = %+v, want valid", c)
	}
	if valid == 0 {
		t.Error("no valid cell in the grid")
	}
}

// browserJapanese switches the report to Japanese with the language links.
func browserJapanese(t *testing.T, tab context.Context, runID string, en, ja *i18n.Localizer) {
	name := ""
	for _, l := range i18n.Languages {
		if l.Tag == "ja" {
			name = l.Name // 日本語
		}
	}
	if name == "" {
		t.Fatal("ja is not among i18n.Languages")
	}
	cdpDo(t, tab, "click the "+name+" link",
		chromedp.Click(chromedp.Search(`//nav[contains(@class,"langs")]//a[normalize-space()="`+name+`"]`)),
		chromedp.WaitReady(chromedp.CSS(`html[lang="ja"] table.grid`)),
	)
	loc := cdpRun(t, tab, "location", chromedp.Location())
	u, err := url.Parse(loc)
	if err != nil {
		t.Fatal(err)
	}
	if u.Path != "/runs/"+runID || u.Query().Get("lang") != "ja" {
		t.Errorf("after the switch the browser is at %s, want /runs/%s?lang=ja", loc, runID)
	}
	if l := cdpRun(t, tab, "html lang", chromedp.AttributeValue(chromedp.CSS("html"), "lang")); l.Value != "ja" {
		t.Errorf(`<html lang=%q>, want "ja"`, l.Value)
	}
	queued := cdpRun(t, tab, "queued cell", chromedp.Text(chromedp.CSS(`table.grid td[data-context="0"][data-concurrency="16"]`)))
	if want := ja.T("status.queued", nil); !strings.Contains(queued, want) {
		t.Errorf("queued cell in Japanese = %q, want it to contain %q", queued, want)
	}
	for sel, id := range map[string]string{"#h-decode": "run.section.decode", "#h-measurements": "run.section.measurements"} {
		got := cdpRun(t, tab, sel, chromedp.Text(chromedp.CSS(sel)))
		if want := ja.T(id, nil); strings.TrimSpace(got) != want {
			t.Errorf("%s = %q, want %q (%s)", sel, got, want, id)
		}
	}
	main := cdpRun(t, tab, "main text", chromedp.Text(chromedp.CSS("main")))
	for _, id := range []string{"status.queued", "status.over_capacity", "run.section.decode"} {
		if english := en.T(id, nil); strings.Contains(main, english) {
			t.Errorf("the Japanese page still shows English %q (%s)", english, id)
		}
	}
}

// browserCookie: the language chosen before is kept without ?lang=.
func browserCookie(t *testing.T, tab context.Context, s *webtest.Site, runID string, ja *i18n.Localizer) {
	cdpDo(t, tab, "open the home page without ?lang=",
		chromedp.Navigate(s.URL+"/"),
		chromedp.WaitReady(chromedp.CSS("h1")),
	)
	if l := cdpRun(t, tab, "html lang", chromedp.AttributeValue(chromedp.CSS("html"), "lang")); l.Value != "ja" {
		t.Errorf(`home without ?lang= is <html lang=%q>; the cookie should have kept "ja"`, l.Value)
	}
	if h1, want := cdpRun(t, tab, "h1", chromedp.Text(chromedp.CSS("h1"))), ja.T("home.title", nil); strings.TrimSpace(h1) != want {
		t.Errorf("home h1 = %q, want %q", h1, want)
	}
	cdpDo(t, tab, "the home page lists the uploaded run", chromedp.WaitReady(chromedp.CSS(`[data-run="`+runID+`"]`)))
}

// browserRefusedUpload submits a file that is not JSON: the form comes
// back with the error beside the file input, announced and focused.
func browserRefusedUpload(t *testing.T, tab context.Context, s *webtest.Site, en *i18n.Localizer) {
	notJSON := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notJSON, []byte("RTX 4090, vllm 0.11.0: about 60 tok/s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cdpDo(t, tab, "submit a file that is not JSON",
		chromedp.Navigate(s.URL+"/upload"),
		chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{notJSON}),
		chromedp.Click(chromedp.CSS("#upload-submit")),
		chromedp.WaitReady(chromedp.CSS("#f-file-error")),
	)
	loc := cdpRun(t, tab, "location", chromedp.Location())
	if u, _ := url.Parse(loc); u == nil || u.Path != "/upload" {
		t.Errorf("after a refused upload the browser is at %s, want /upload", loc)
	}
	// The error sits in the file field's own block, and the input
	// points at it for screen readers.
	next := cdpRun(t, tab, "error beside the file input", chromedp.Evaluate[string](
		`(document.querySelector('#f-file').closest('.field').querySelector('#f-file-error') || {innerText: ''}).innerText`))
	// The detail after the colon is the JSON decoder's own words.
	want, _, _ := strings.Cut(en.T("problem.syntax", map[string]any{"Offset": 0, "Detail": "\x00"}), "\x00")
	if !strings.Contains(next, want) {
		t.Errorf("error beside the file field = %q, want it to contain %q", next, want)
	}
	attrs := cdpRun(t, tab, "file input", chromedp.Attributes(chromedp.CSS("#f-file")))
	if attrs["aria-invalid"] != "true" || !strings.Contains(attrs["aria-describedby"], "f-file-error") {
		t.Errorf("file input attributes = %v, want aria-invalid=true and aria-describedby naming f-file-error", attrs)
	}
	// The page's script sent the form and put the refusal in place of
	// the form; its title says so and the focus is on the summary.
	if title := cdpRun(t, tab, "title", chromedp.Title()); !strings.HasPrefix(title, en.T("upload.title_refused", nil)) {
		t.Errorf("title after the refusal %q, want it to start with %q", title, en.T("upload.title_refused", nil))
	}
	if id := cdpRun(t, tab, "focus", chromedp.Evaluate[string](`document.activeElement.id`)); id != "upload-errors" {
		t.Errorf("after the refusal the focus is on #%s, want the error summary", id)
	}
}
