package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// grantPermissions is Browser.grantPermissions, which this cdproto does not
// generate; the clipboard test needs it to read what Copy wrote.
var grantPermissions = cdp.Command[grantParams, cdp.Empty]{Method: "Browser.grantPermissions"}

type grantParams struct {
	Permissions      []string             `json:"permissions"`
	Origin           string               `json:"origin,omitempty"`
	BrowserContextID cdp.BrowserContextID `json:"browserContextId,omitempty"`
}

// TestShareBrowser: in a real Chromium, the Share panel's Copy button puts
// the Markdown export on the clipboard, and the embed page loads inside an
// iframe of another origin while the report page refuses to.
func TestShareBrowser(t *testing.T) {
	browser := newBrowser(t)
	s := webtest.NewSite(t)
	id := s.Seed(t)
	_, md := s.Get(t, "/runs/"+id+".md?lang=en")

	t.Run("copy markdown", func(t *testing.T) { shareCopyMarkdown(t, newTab(t, browser), s, id, md) })

	t.Run("embed in another origin", func(t *testing.T) {
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!DOCTYPE html><title>forum</title><iframe id="ok" src="%s/runs/%s/embed?lang=en" width="700" height="500"></iframe>`+
				`<iframe id="no" src="%s/runs/%s?lang=en" width="700" height="500"></iframe>`, s.URL, id, s.URL, id)
		}))
		t.Cleanup(other.Close)
		if strings.Split(other.URL, ":")[2] == strings.Split(s.URL, ":")[2] {
			t.Fatal("the two servers share a port")
		}
		tab := newTab(t, browser)
		cdpDo(t, tab, "open the forum page", chromedp.Navigate(other.URL+"/"))
		frames := func(ctx context.Context) map[string]*cdp.Frame {
			tree, err := chromedp.Call(ctx, cdppage.GetFrameTree, cdp.Empty{})
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]*cdp.Frame{}
			for _, c := range tree.FrameTree.ChildFrames {
				out[c.Frame.Name+c.Frame.URL] = c.Frame
			}
			return out
		}
		deadline := time.Now().Add(10 * time.Second)
		var embed, report *cdp.Frame
		for time.Now().Before(deadline) && (embed == nil || report == nil) {
			for _, f := range frames(tab) {
				switch {
				case strings.Contains(f.URL, "/embed"):
					embed = f
				case f.UnreachableURL != "" || strings.HasPrefix(f.URL, "chrome-error:"):
					report = f
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		if embed == nil || embed.UnreachableURL != "" {
			t.Fatalf("the embed page did not load in the iframe: %+v", frames(tab))
		}
		if report == nil {
			t.Errorf("the report page loaded inside another origin's iframe: %+v", frames(tab))
		}
		// What the frame shows: the grid, read through the DOM (the frame
		// is cross-origin, so the parent page's script could not).
		iframes := cdpRun(t, tab, "the iframe", chromedp.Nodes(chromedp.CSS("iframe#ok")))
		h1 := cdpRun(t, tab, "embed title", chromedp.Text(chromedp.CSS("h1"), chromedp.FromNode(iframes[0])))
		if !strings.Contains(h1, "Qwen3.5-4B-FP8-dynamic") {
			t.Errorf("embed h1 = %q", h1)
		}
	})
}

// shareCopyMarkdown clicks the Share panel's Copy button and reads the
// clipboard: the Markdown export, byte for byte.
func shareCopyMarkdown(t *testing.T, tab context.Context, s *webtest.Site, id, md string) {
	cdpDo(t, tab, "open the report", chromedp.Navigate(s.URL+"/runs/"+id+"?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`button[data-copy="share-md"]`)))
	bctx := chromedp.FromContext(tab).BrowserContextID
	if _, err := chromedp.CallBrowser(tab, grantPermissions, grantParams{
		Permissions: []string{"clipboardReadWrite", "clipboardSanitizedWrite"}, Origin: s.URL, BrowserContextID: bctx,
	}); err != nil {
		t.Fatalf("grant clipboard permissions: %v", err)
	}
	cdpDo(t, tab, "click Copy", chromedp.Click(chromedp.CSS(`button[data-copy="share-md"]`)))
	label := cdpRun(t, tab, "button label", chromedp.Poll[string](
		`(() => { const t = document.querySelector('button[data-copy="share-md"]').textContent; return t === 'Copied' ? t : null })()`,
		chromedp.WithPollingTimeout(5*time.Second)))
	if label != "Copied" {
		t.Fatalf("button says %q", label)
	}
	got := cdpRun(t, tab, "read the clipboard", chromedp.Evaluate[string](`navigator.clipboard.readText()`,
		chromedp.EvalAwaitPromise))
	if got != md {
		t.Errorf("clipboard holds\n%s\nwant /runs/{id}.md:\n%s", got, md)
	}
}
