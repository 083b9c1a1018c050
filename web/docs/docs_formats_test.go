package docs_test

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/web/webtest"
)

// TestToolMapping: a report of another tool's file names the tool, links to
// its section of the mapping, and shows the caveats of its numbers; the
// mapping page has that section.
func TestToolMapping(t *testing.T) {
	s := webtest.NewSite(t)
	resp, out := s.Post(t, "application/json", webtest.ReadFile(t, "testdata/formats/other-tools/llama_bench.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("llama-bench upload = %d %v", resp.StatusCode, out)
	}
	doc := webtest.Page(t, s, "/runs/"+out["id"].(string))
	link, _ := doc.Find("a.tool-docs").Attr("href")
	if link != "/docs/formats#llama-bench" || !strings.Contains(doc.Find(".tool").Text(), "llama-bench b") {
		t.Errorf("tool line %q links %q, want llama-bench's section", doc.Find(".tool").Text(), link)
	}
	if doc.Find("p.caveat").Length() == 0 {
		t.Errorf("no caveat notes on a llama-bench report")
	}
	docs := webtest.Page(t, s, "/docs/formats")
	for _, id := range []string{"llama-bench", "vllm-bench-serve", "sglang-bench-serving", "guidellm", "genai-perf", "llmperf"} {
		if docs.Find("#"+id).Length() != 1 {
			t.Errorf("/docs/formats has no section #%s", id)
		}
	}
	if docs.Find("table").Length() == 0 {
		t.Errorf("/docs/formats renders no tables")
	}
	// The seed run is llm-inference-bench's own format: no mapping link.
	seed := webtest.Page(t, s, "/runs/"+s.Seed(t))
	if seed.Find("a.tool-docs").Length() != 0 {
		t.Errorf("the seed report links to a mapping it does not need")
	}
}
