package upstream

import (
	"net/url"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
)

func seedUpstream(cells int) Report {
	old, cur := reporttest.Run(), reporttest.Run()
	old.ID, old.Engine.Version, old.Hardware.Driver = "old111", "0.31.0", "570.1"
	cur.Hardware.Driver = "580.2"
	old.Engine.LaunchCommand = "vllm serve m --kv-cache-dtype fp8"
	cur.Engine.LaunchCommand = "vllm serve m --kv-cache-dtype int4_per_token_head"
	var pts []regress.Point
	for i := range cells {
		c := regress.Cell{Context: i * 1024, Concurrency: 1}
		pts = append(pts, regress.Point{Version: "0.31.0", Cell: c, TPS: 100 * 1.25, RunID: old.ID},
			regress.Point{Version: "0.32.0", Cell: c, TPS: 100, RunID: cur.ID})
	}
	return Report{Entry: regress.Entry{Change: regress.Detect(pts)[0], Old: old, New: cur}, Engine: "vLLM", Hardware: "RTX 3060 12GB",
		Model: "RedHatAI/Qwen3.5-4B-FP8-dynamic", Quantization: "FP8 dynamic",
		OldURL: "https://speedmatrix.example/runs/old111", NewURL: "https://speedmatrix.example/runs/k3x9q2",
		PageURL: "https://speedmatrix.example/regressions?engine=vllm"}
}

func TestMarkdownNamesBothVersionsCommandsAndRuns(t *testing.T) {
	u := seedUpstream(3)
	md := u.Markdown()
	for _, want := range []string{"vLLM 0.31.0 → 0.32.0", "RTX 3060 12GB", "FP8 dynamic",
		"−20.0 % total tok/s at 0 × 1 (125.0 → 100.0)", "| 1024 × 1 | 125.0 | 100.0 | −20.0 % |",
		"vllm serve m --kv-cache-dtype fp8", "vllm serve m --kv-cache-dtype int4_per_token_head",
		u.OldURL, u.NewURL, "The setup changed too", "`--kv-cache-dtype`: `fp8` → `int4_per_token_head`",
		"driver: `570.1` → `580.2`", "Driver: 570.1"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if got := u.Title(); got != "[Performance]: 20 % lower total tok/s in 0.32.0 than 0.31.0 (RTX 3060 12GB, RedHatAI/Qwen3.5-4B-FP8-dynamic)" {
		t.Errorf("title %q", got)
	}
}

func TestIssueURL(t *testing.T) {
	u := seedUpstream(3)
	link := u.IssueURL()
	parsed, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(link, "https://github.com/vllm-project/vllm/issues/new?") {
		t.Fatalf("link %q (%v)", link, err)
	}
	if parsed.Query().Get("body") != u.Markdown() || parsed.Query().Get("title") != u.Title() {
		t.Error("a short report's link does not carry the whole text")
	}
	// Hundreds of cells do not fit an address: the short body does.
	long := seedUpstream(400)
	link = long.IssueURL()
	parsed, _ = url.Parse(link)
	if len(link) > maxIssueURL || parsed.Query().Get("body") != long.ShortBody() ||
		!strings.Contains(long.ShortBody(), long.PageURL) {
		t.Errorf("long report's link (%d bytes) body %q", len(link), parsed.Query().Get("body"))
	}
	for engine, prefix := range map[string]string{"sglang": "https://github.com/sgl-project/sglang/issues/new?",
		"llama.cpp": "https://github.com/ggml-org/llama.cpp/issues/new?", "tgi": ""} {
		u.New.Engine.Name = engine
		if got := u.IssueURL(); !strings.HasPrefix(got, prefix) || (prefix == "") != (got == "") {
			t.Errorf("%s: link %q", engine, got)
		}
	}
}
