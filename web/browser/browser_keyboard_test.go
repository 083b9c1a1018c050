package browser_test

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// focused is the element that has the keyboard focus, as a test names it.
type focused struct {
	Key     string `json:"key"`     // id, else name, else the link's path
	Visible bool   `json:"visible"` // an outline is drawn around it
}

// focusedJS names the focused element and says whether its focus ring is
// visible (a non-zero outline that is not "none").
const focusedJS = `(() => {
	const e = document.activeElement, cs = getComputedStyle(e);
	const key = e.id || e.getAttribute('name') || (e.href ? new URL(e.href).pathname + new URL(e.href).hash : e.tagName.toLowerCase());
	return {key, visible: cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0};
})()`

// tabThrough presses Tab from the top of the page until the element named
// last has the focus (at most max presses) and returns every element that
// had it on the way. It fails t on a focus that draws no ring.
func tabThrough(t *testing.T, ctx context.Context, last string, max int) []string {
	t.Helper()
	var keys []string
	for range max {
		cdpDo(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
		f := cdpRun(t, ctx, "focus", chromedp.Evaluate[focused](focusedJS))
		if !f.Visible {
			t.Errorf("%s has the focus without a visible focus ring", f.Key)
		}
		keys = append(keys, f.Key)
		if f.Key == last {
			return keys
		}
	}
	t.Fatalf("%d Tabs never reached %s: %v", max, last, keys)
	return nil
}

// inOrder checks that want appear in got in this order, nothing between
// them (the controls of one form, in the form's own order).
func inOrder(t *testing.T, got, want []string) {
	t.Helper()
	i := slices.Index(got, want[0])
	if i < 0 || len(got) < i+len(want) || !slices.Equal(got[i:i+len(want)], want) {
		t.Errorf("tab order %v, want %v in a row", got, want)
	}
}

// TestKeyboard uses every form with the keyboard alone: Tab reaches each
// control in the form's order with a visible focus ring, and Enter submits.
// A refused upload moves the focus to the announced error summary and
// says so in the title.
func TestKeyboard(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	s.Seed(t)
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	en := b.Localizer("en")
	t.Run("upload", func(t *testing.T) { keyboardUpload(t, newTab(t, browser), s, en) })
	t.Run("preview and publish", func(t *testing.T) { keyboardPreview(t, newTab(t, browser), s) })
	for _, path := range []string{"/runs", "/leaderboard"} {
		t.Run("filters "+path, func(t *testing.T) { keyboardFilters(t, newTab(t, browser), s, path) })
	}
	t.Run("search", func(t *testing.T) { keyboardSearch(t, newTab(t, browser), s) })
	t.Run("calculator", func(t *testing.T) { keyboardCalculator(t, newTab(t, browser), s) })
}

// keyboardUpload tabs through the upload form, submits a file that is not
// JSON with Enter and checks what a keyboard or screen reader user meets.
func keyboardUpload(t *testing.T, tab context.Context, s *webtest.Site, en *i18n.Localizer) {
	want := []string{"f-file", "upload-submit"}
	cdpDo(t, tab, "open the form", chromedp.Navigate(s.URL+"/upload?lang=en"))
	// A file is chosen in the system's dialog, which the browser drives;
	// the test sets it and leaves the rest to the keyboard.
	notJSON := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notJSON, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cdpDo(t, tab, "choose a file", chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{notJSON}))
	keys := tabThrough(t, tab, "upload-submit", 60)
	inOrder(t, keys, want)
	cdpDo(t, tab, "submit with Enter", chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(chromedp.CSS("#upload-errors")))
	f := cdpRun(t, tab, "focus after the refusal", chromedp.Evaluate[focused](focusedJS))
	if f.Key != "upload-errors" || !f.Visible {
		t.Errorf("after a refused upload the focus is on %+v, want the error summary with a visible ring", f)
	}
	if role := cdpRun(t, tab, "role", chromedp.AttributeValue(chromedp.CSS("#upload-errors"), "role")); role.Value != "alert" {
		t.Errorf("error summary role %q, want alert", role.Value)
	}
	if title := cdpRun(t, tab, "title", chromedp.Title()); !strings.HasPrefix(title, en.T("upload.title_refused", nil)) {
		t.Errorf("title after a refusal %q, want it to start with %q", title, en.T("upload.title_refused", nil))
	}
	// The summary's first link leads to the file field.
	cdpDo(t, tab, "Tab to the summary's link", chromedp.KeyEvent(kb.Tab))
	if f := cdpRun(t, tab, "focus", chromedp.Evaluate[focused](focusedJS)); f.Key != "/upload#f-file" || !f.Visible {
		t.Errorf("Tab from the summary reaches %+v, want its link to #f-file", f)
	}
}

// keyboardPreview uploads the seed file with Enter, tabs through the
// preview's open fields in order to the change disclosure and Publish,
// types the GPU on the way and publishes with Enter.
func keyboardPreview(t *testing.T, tab context.Context, s *webtest.Site) {
	seed, err := filepath.Abs(webtest.Path("internal/demo/runs/seed-rtx3060.bench.json"))
	if err != nil {
		t.Fatal(err)
	}
	cdpDo(t, tab, "open the form and choose the file", chromedp.Navigate(s.URL+"/upload?lang=en"),
		chromedp.SetUploadFiles(chromedp.CSS("#f-file"), []string{seed}))
	tabThrough(t, tab, "upload-submit", 40)
	cdpDo(t, tab, "upload with Enter", chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(chromedp.CSS("#draft-form")))
	want := cdpRun(t, tab, "the open fields", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#draft-form input, #draft-form select, #draft-form textarea')].filter(e => !e.closest('details')).map(e => e.id)`))
	if len(want) < 5 {
		t.Fatalf("the preview opens only %v", want)
	}
	keys := tabThrough(t, tab, "f-gpu_name", 60)
	cdpDo(t, tab, "type the GPU", chromedp.KeyEvent("RTX 3060"))
	keys = append(keys, tabThrough(t, tab, "draft-publish", 40)...)
	inOrder(t, keys, append(want, "draft-change", "draft-publish"))
	cdpDo(t, tab, "publish with Enter", chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(chromedp.CSS("#share")))
	if h1 := cdpRun(t, tab, "h1", chromedp.Text(chromedp.CSS("h1"))); !strings.Contains(h1, "RTX 3060") {
		t.Errorf("the report published with the keyboard is %q, want the typed GPU", h1)
	}
}

// keyboardFilters tabs to a browse page's filter form and submits a typed
// engine version with Enter.
func keyboardFilters(t *testing.T, tab context.Context, s *webtest.Site, path string) {
	cdpDo(t, tab, "open "+path, chromedp.Navigate(s.URL+path+"?lang=en"))
	want := cdpRun(t, tab, "the form's controls", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('form.filters select, form.filters input, form.filters button')].map(e => e.name || e.id)`))
	if len(want) < 3 {
		t.Fatalf("%s filter form has controls %v", path, want)
	}
	keys := tabThrough(t, tab, "version", 40)
	inOrder(t, keys, want[:slices.Index(want, "version")+1])
	cdpDo(t, tab, "type a version and press Enter", chromedp.KeyEvent("0.32"), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitReady(chromedp.CSS(`form.filters input[name="version"][value="0.32"]`)))
	loc, _ := url.Parse(cdpRun(t, tab, "location", chromedp.Location()))
	if loc == nil || loc.Path != path || loc.Query().Get("version") != "0.32" {
		t.Errorf("after Enter the browser is at %v, want %s?version=0.32", loc, path)
	}
	rest := tabThrough(t, tab, "filter-apply", 40)
	inOrder(t, rest, want[slices.Index(want, "version"):])
}

// keyboardSearch tabs to the search box, types and presses Enter.
func keyboardSearch(t *testing.T, tab context.Context, s *webtest.Site) {
	cdpDo(t, tab, "open /search", chromedp.Navigate(s.URL+"/search?lang=en"))
	tabThrough(t, tab, "q", 30)
	cdpDo(t, tab, "search with Enter", chromedp.KeyEvent("qwen"), chromedp.KeyEvent(kb.Enter),
		chromedp.WaitReady(chromedp.CSS(`ul.hits a`)))
	if loc, _ := url.Parse(cdpRun(t, tab, "location", chromedp.Location())); loc == nil || loc.Query().Get("q") != "qwen" {
		t.Errorf("after Enter the browser is at %v, want /search?q=qwen", loc)
	}
	if f := tabThrough(t, tab, "search-submit", 30); len(f) == 0 {
		t.Error("Tab never reached the search button")
	}
}

// keyboardCalculator tabs through the calculator's form in its own order
// and recalculates with Enter on its button.
func keyboardCalculator(t *testing.T, tab context.Context, s *webtest.Site) {
	cdpDo(t, tab, "open a calculation", chromedp.Navigate(s.URL+
		"/calculator?gpu=rtx-3060-12gb&model=Qwen%2FQwen3.5-4B&weights=fp8&kv=int4&concurrency=2&lang=en"))
	want := cdpRun(t, tab, "the form's controls", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#calc-form select, #calc-form input, #calc-form textarea, #calc-form button')].map(e => e.id || e.name)`))
	if len(want) < 8 || want[len(want)-1] != "calc-submit" {
		t.Fatalf("calculator form controls %v", want)
	}
	inOrder(t, tabThrough(t, tab, "calc-submit", 60), want)
	cdpDo(t, tab, "press Enter on Calculate", chromedp.KeyEvent(kb.Enter), chromedp.WaitReady(chromedp.CSS("#result")))
	loc, _ := url.Parse(cdpRun(t, tab, "location", chromedp.Location()))
	if loc == nil || loc.Path != "/calculator" || loc.Query().Get("gpu") != "rtx-3060-12gb" || loc.Query().Get("concurrency") != "2" {
		t.Errorf("after Enter the browser is at %v, want the same calculation", loc)
	}
}
