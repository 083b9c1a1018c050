package report

import (
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func TestBuildHeader(t *testing.T) {
	v := Build(reporttest.Run(), localizer(t, "en"))
	check := map[string][2]string{
		"title":   {v.Title, "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB"},
		"engine":  {v.EngineLine, "vllm · 0.32.0 · FP8 dynamic"},
		"summary": {v.Summary, "3 contexts (0–248K) × 3 concurrency levels (1–16) · prefill at 8K, 64K"},
		// The seed run was uploaded without a token: its name is claimed.
		"submitter":  {v.Submitter, "by “Sandberg” (claimed, not verified)"},
		"tool":       {v.Tool, "llm-inference-bench v0.8.0"},
		"provenance": {v.Provenance, "Measured"},
		"source":     {v.SourceURL, "/runs/k3x9q2/source"},
		"json":       {v.JSONURL, "/runs/k3x9q2.json"},
	}
	for name, c := range check {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
}

func TestBuildTitleVariants(t *testing.T) {
	l := localizer(t, "en")
	r := reporttest.Run()
	r.Hardware.GPUCount, r.Hardware.VRAMGB = 2, 24
	if got := Title(r, l); got != "Qwen3.5-4B-FP8-dynamic on 2× RTX 3060 24GB" {
		t.Errorf("multi-GPU title = %q", got)
	}
	r.Hardware = run.Hardware{Type: run.CPUOnly, CPUName: "AMD EPYC 9654"}
	if got := Title(r, l); got != "Qwen3.5-4B-FP8-dynamic on AMD EPYC 9654" {
		t.Errorf("CPU title = %q", got)
	}
}

// TestTitleOf: a list that holds only a run's model and hardware names it
// as its report page does, down to the fallbacks.
func TestTitleOf(t *testing.T) {
	l := localizer(t, "en")
	r := reporttest.Run()
	if got, want := TitleOf(run.Model{ID: r.Model.ID}, r.Hardware, l), Title(r, l); got != want {
		t.Errorf("TitleOf = %q, Title = %q", got, want)
	}
	for _, c := range []struct {
		m    run.Model
		h    run.Hardware
		want string
	}{
		{run.Model{ServedName: "my-model"}, run.Hardware{GPUName: "RTX 4090"}, "my-model on RTX 4090"},
		{run.Model{ID: "Qwen/Qwen3-8B"}, run.Hardware{GPUName: "NVIDIA H100 80GB HBM3", VRAMGB: 80}, "Qwen3-8B on NVIDIA H100 80GB HBM3"},
		{run.Model{ID: "Qwen/Qwen3-8B"}, run.Hardware{GPUName: "A100-SXM4-40GB", VRAMGB: 80}, "Qwen3-8B on A100-SXM4-40GB 80GB"},
		{run.Model{ID: "Qwen/Qwen3-8B"}, run.Hardware{GPUName: "RTX 3060", VRAMGB: 12}, "Qwen3-8B on RTX 3060 12GB"},
		{run.Model{ID: "org/"}, run.Hardware{}, "org/ on unknown hardware"},
		{run.Model{}, run.Hardware{Type: run.CPUOnly, CPUName: "Ryzen 9"}, "Unknown model on Ryzen 9"},
	} {
		if got := TitleOf(c.m, c.h, l); got != c.want {
			t.Errorf("TitleOf(%+v, %+v) = %q, want %q", c.m, c.h, got, c.want)
		}
	}
}

func TestBuildSections(t *testing.T) {
	v := Build(reporttest.Run(), localizer(t, "en"))
	var got []string
	for _, s := range v.Sections {
		got = append(got, "# "+s.Title)
		for _, f := range s.Facts {
			got = append(got, f.Label+": "+f.Value)
		}
	}
	want := `# Hardware
Type: Discrete GPU
GPU: RTX 3060
VRAM: 12 GB
CPU: Intel Xeon E5-2680 v4 (14C)
RAM: 32 GB
OS: Ubuntu 24.04.5
# Engine
Engine: vllm
Version: 0.32.0
Quantization: FP8 dynamic
Backend: cuda
Build: vllm/vllm-openai:v0.32.0-x86_64
# Run
Served model: bench
Revision: main
Decode test: Fixed duration
Prefill mode: Measured during decode warm-up
Time per measurement: 30 s
Max output: 8,192 tokens
KV cache budget: 286,720 tokens`
	if g := strings.Join(got, "\n"); g != want {
		t.Errorf("sections:\n%s\nwant:\n%s", g, want)
	}
}

func TestBuildPrefillAndGrid(t *testing.T) {
	v := Build(reporttest.Run(), localizer(t, "en"))
	if p := v.Prefill[1]; p.Label != "64K context" || p.TPS != "875.0" || p.TTFT != "73,169 ms TTFT" {
		t.Errorf("prefill row = %+v", p)
	}
	if len(v.Grid.Rows) != 3 || len(v.Grid.Columns) != 3 || v.Grid.Max != 125 {
		t.Fatalf("grid shape %d×%d max %v", len(v.Grid.Rows), len(v.Grid.Columns), v.Grid.Max)
	}
	// Cells are keyed by their row's and column's labels ("128Kx16"); each
	// row has a cell per column, in the columns' order.
	cells := map[string]Cell{}
	for _, row := range v.Grid.Rows {
		if len(row.Cells) != len(v.Grid.Columns) {
			t.Fatalf("row %s has %d cells for %d columns", row.Label, len(row.Cells), len(v.Grid.Columns))
		}
		for j, c := range row.Cells {
			col := v.Grid.Columns[j]
			if c.Context != row.ContextTokens || c.Concurrency != col.Concurrency {
				t.Errorf("cell %d of row %s is %d×%d, not under column %s", j, row.Label, c.Context, c.Concurrency, col.Label)
			}
			cells[row.Label+"x"+col.Label] = c
		}
	}
	if c := cells["0x1"]; c.TPS != "63.5" || c.TTFT != "96 ms TTFT" || c.StatusLabel != "" || c.BG == "" {
		t.Errorf("valid cell = %+v", c)
	}
	if c := cells["0x16"]; c.TPS != "536.8" || c.StatusLabel != "Requests queued" || c.BG != "" ||
		c.Reason != "13.00 of 16 requests ran at once on average." {
		t.Errorf("queued cell = %+v", c)
	}
	if c := cells["128Kx16"]; c.TPS != "" || c.StatusLabel != "Over capacity" ||
		c.Reason != "Needs 2,228,224 KV-cache tokens (16 × (131,072 + 8,192)); the server has 286,720." {
		t.Errorf("KV cell = %+v", c)
	}
	if c := cells["128Kx2"]; c.StatusLabel != "Failed" || c.Reason != "HTTP 500 from server" || c.TPS != "" {
		t.Errorf("failed cell = %+v", c)
	}
	if c := cells["248Kx2"]; c.StatusLabel != "Not measured" {
		t.Errorf("absent cell = %+v", c)
	}
	if len(v.StatusNotes) != 4 || v.StatusNotes[0].Status != run.Queued {
		t.Errorf("notes = %+v", v.StatusNotes)
	}
	if v.TTFTNote == "" {
		t.Error("no TTFT note for an llm-inference-bench run")
	}
}

// TestBuildRows reproduces the seed's All-measurements lines, including the
// empty Completed cell of fixed-duration decode rows.
func TestBuildRows(t *testing.T) {
	v := Build(reporttest.Run(), localizer(t, "en"))
	line := func(r Row) string {
		return strings.Join([]string{r.Phase, r.Context, r.ConcurrencyLabel, r.StatusLabel, r.TotalTPS, r.PerRequest,
			r.TTFT, r.TBT, r.AvgActive, r.Completed, r.OutputTokens, r.MeasuredFor}, "|")
	}
	want := []string{
		"Prefill|8K|1|Valid|2,186.0|—|3,727 ms|—|—|1|—|—",
		"Prefill|64K|1|Valid|875.0|—|73,169 ms|—|—|1|—|—",
		"Sustained decode|0|1|Valid|63.5|65.0|96 ms|15.4 ms|1.00||1,903|30.0 s",
		"Sustained decode|0|2|Valid|125.0|63.2|181 ms|15.8 ms|2.00||3,750|30.0 s",
		"Sustained decode|0|16|Requests queued|536.8|40.7|602 ms|24.6 ms|13.00||16,106|30.0 s",
		"Sustained decode|128K|1|Requests queued|8.3|14.9|13,783 ms|67.1 ms|0.80||248|29.9 s",
		"Sustained decode|128K|2|Failed|—|—|—|—|—||—|12.0 s",
		"Sustained decode|128K|16|Over capacity|—|—|—|—|—|—|—|—",
		"Sustained decode|248K|1|Over capacity|—|—|—|—|1.00||0|30.0 s",
		"Sustained decode|248K|2|Not measured|—|—|—|—|—|—|—|—",
		"Sustained decode|248K|16|Over capacity|—|—|—|—|—|—|—|—",
	}
	if len(v.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(v.Rows), len(want))
	}
	for i, r := range v.Rows {
		if got := line(r); got != want[i] {
			t.Errorf("row %d:\n got %s\nwant %s", i, got, want[i])
		}
		if r.PhaseKey == "decode" && r.Completed == "" && r.CompletedNote == "" {
			t.Errorf("row %d: empty Completed without a note", i)
		}
	}
	r := reporttest.Run()
	r.Settings.DecodeMode = run.DecodeRequestCount
	if got := Build(r, localizer(t, "en")).Rows[2].Completed; got != "1" {
		t.Errorf("request-count run completed = %q", got)
	}
}

func TestBuildLocales(t *testing.T) {
	ja := Build(reporttest.Run(), localizer(t, "ja"))
	if ja.Title != "RTX 3060 12GB 上の Qwen3.5-4B-FP8-dynamic" {
		t.Errorf("ja title = %q", ja.Title)
	}
	if !strings.HasPrefix(ja.Summary, "3 種のコンテキスト長（0–248K）") || !strings.Contains(ja.Summary, "8K、64K") {
		t.Errorf("ja summary = %q", ja.Summary)
	}
	zh := Build(reporttest.Run(), localizer(t, "zh-Hans"))
	if zh.Rows[7].StatusLabel != "超出容量" {
		t.Errorf("zh status = %q", zh.Rows[7].StatusLabel)
	}
}

// TestBuildEntities: the report links each identity the run names to its
// page, by the slug the store files it under, and names no page for an
// identity the run leaves out.
func TestBuildEntities(t *testing.T) {
	l := localizer(t, "en")
	r := reporttest.Run()
	if Build(r, l).Href(LinkSubmitter) != "" {
		t.Error("a claimed (unverified) name links to a submitter page")
	}
	r.SubmitterVerified = true
	v := Build(r, l)
	if v.Submitter != "by @Sandberg" {
		t.Errorf("verified submitter = %q, want by @Sandberg", v.Submitter)
	}
	for key, want := range map[string]string{
		LinkHardware:  "/hardware/rtx-3060-12gb",
		LinkEngine:    "/engines/vllm",
		LinkModel:     "/models/redhatai-qwen3-5-4b-fp8-dynamic",
		LinkSubmitter: "/submitters/sandberg",
	} {
		if got := v.Href(key); got != want {
			t.Errorf("Href(%s) = %q, want %q", key, got, want)
		}
	}
	r.Submitter = ""
	if got := Build(r, l).Href(LinkSubmitter); got != "" {
		t.Errorf("a run without a submitter links %q", got)
	}
}
