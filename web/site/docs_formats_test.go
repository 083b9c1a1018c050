package site_test

import (
	"strings"
	"testing"
)

// TestToolMapping: a report of another tool's file names the tool, links to
// its section of the mapping, and shows the caveats of its numbers; the
// mapping page has that section.
func TestToolMapping(t *testing.T) {
	s := newSite(t)
	resp, out := s.post(t, "application/json", readFile(t, "../../testdata/formats/other-tools/llama_bench.json"))
	if resp.StatusCode != 201 {
		t.Fatalf("llama-bench upload = %d %v", resp.StatusCode, out)
	}
	doc := page(t, s, "/runs/"+out["id"].(string))
	link, _ := doc.Find("a.tool-docs").Attr("href")
	if link != "/docs/formats#llama-bench" || !strings.Contains(doc.Find(".tool").Text(), "llama-bench b") {
		t.Errorf("tool line %q links %q, want llama-bench's section", doc.Find(".tool").Text(), link)
	}
	if doc.Find("p.caveat").Length() == 0 {
		t.Errorf("no caveat notes on a llama-bench report")
	}
	docs := page(t, s, "/docs/formats")
	for _, id := range []string{"llama-bench", "vllm-bench-serve", "sglang-bench-serving", "guidellm", "genai-perf", "llmperf"} {
		if docs.Find("#"+id).Length() != 1 {
			t.Errorf("/docs/formats has no section #%s", id)
		}
	}
	if docs.Find("table").Length() == 0 {
		t.Errorf("/docs/formats renders no tables")
	}
	// The seed run is llm-inference-bench's own format: no mapping link.
	seed := page(t, s, "/runs/"+s.seed(t))
	if seed.Find("a.tool-docs").Length() != 0 {
		t.Errorf("the seed report links to a mapping it does not need")
	}
}
