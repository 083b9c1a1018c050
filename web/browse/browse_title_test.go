package browse_test

import (
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestListTitleServedName: a run that knows only its served model name (a
// vLLM file whose model_id is a local path) is named in the runs list
// exactly as its report page names it, not as an unknown model.
func TestListTitleServedName(t *testing.T) {
	s := webtest.NewSite(t)
	body, err := os.ReadFile(webtest.Path("testdata/regress/vllm_local_model_path.json"))
	if err != nil {
		t.Fatal(err)
	}
	resp, out := s.Post(t, "application/json", body)
	if resp.StatusCode != 201 {
		t.Fatalf("upload = %d: %v", resp.StatusCode, out)
	}
	id, _ := out["id"].(string)
	text := func(path, sel string) string {
		t.Helper()
		_, page := s.Get(t, path)
		d, err := goquery.NewDocumentFromReader(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(d.Find(sel).First().Text())
	}
	report := text("/runs/"+id, "h1")
	if !strings.HasPrefix(report, "qwen3-8b-awq on ") {
		t.Fatalf("report page's title = %q", report)
	}
	for _, path := range []string{"/runs", "/"} {
		if got := text(path, `tr[data-run="`+id+`"] a[href="/runs/`+id+`"]`); got != report {
			t.Errorf("%s names the run %q, its report page %q", path, got, report)
		}
	}
}
