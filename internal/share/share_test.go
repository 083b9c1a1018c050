package share

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func localizer(t testing.TB, tag string) *i18n.Localizer {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	l := b.Localizer(tag)
	t.Cleanup(func() {
		if m := l.Missing(); len(m) > 0 {
			t.Errorf("missing message ids in %s: %v", tag, m)
		}
	})
	return l
}

// ingested is a document as the ingest derives it (no database).
func ingested(t testing.TB, u ingest.Upload) *run.Run {
	t.Helper()
	r, _, err := ingest.Prepare(u, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.ID = "k3x9q2mabc"
	return r
}

func demoRun(t testing.TB, name string) *run.Run {
	t.Helper()
	u, err := demo.Upload(name)
	if err != nil {
		t.Fatal(err)
	}
	return ingested(t, u)
}

// TestHeadlineSeed: the issue's own sentence, from the seed run; its peak
// is the queued 0×32 cell (545.9), so peak counts queued cells.
func TestHeadlineSeed(t *testing.T) {
	r := demoRun(t, demo.SeedRun)
	want := "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB · vLLM 0.32.0 · 63.5 tok/s single stream · 546 tok/s peak"
	if got := Headline(r, localizer(t, "en")); got != want {
		t.Errorf("headline\n got %q\nwant %q", got, want)
	}
	if got := Headline(r, localizer(t, "ja")); !strings.Contains(got, "単一ストリーム 63.5 tok/s") {
		t.Errorf("ja headline %q", got)
	}
	if got := BadgeText(r, localizer(t, "en")); got != "63.5 tok/s · RTX 3060 12GB" {
		t.Errorf("badge %q", got)
	}
}

// TestHeadlineWithoutNumbers: a run with no valid single-stream cell and no
// measured cell states neither figure rather than a dash.
func TestHeadlineWithoutNumbers(t *testing.T) {
	r := reporttest.Run()
	for i := range r.Decode {
		r.Decode[i].Status = run.Failed
	}
	got := Headline(r, localizer(t, "en"))
	if strings.Contains(got, "tok/s") || got != "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB · vLLM 0.32.0" {
		t.Errorf("headline %q", got)
	}
}

func TestTextAligned(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, reporttest.Run(), localizer(t, "ja"), "https://x.example/runs/k3x9q2"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	// The decode grid's rows all end at the same display column.
	var widths []int
	for i, ln := range lines {
		if strings.HasPrefix(ln, "持続デコード") || strings.HasPrefix(ln, "Sustained") {
			for _, row := range lines[i+1 : i+5] {
				widths = append(widths, displayWidth(row))
			}
		}
	}
	if len(widths) != 4 {
		t.Fatalf("no decode grid found:\n%s", b.String())
	}
	for _, w := range widths[1:] {
		if w != widths[0] {
			t.Errorf("rows of unequal width %v:\n%s", widths, b.String())
			break
		}
	}
}

func TestBBCodeEscapes(t *testing.T) {
	r := reporttest.Run()
	r.Model.ID = "evil/[url=javascript:x]m[/url]"
	var b bytes.Buffer
	if err := BBCode(&b, r, localizer(t, "en"), "https://x.example/runs/k3x9q2"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "[url=javascript") {
		t.Errorf("a model name opened a tag:\n%s", b.String())
	}
	if !strings.Contains(b.String(), "[code]\n") || !strings.Contains(b.String(), "63.5 · 96 ms") {
		t.Errorf("bbcode:\n%s", b.String())
	}
}

func TestSVGsParse(t *testing.T) {
	r := reporttest.Run()
	r.Model.ID = `a/<b>&"c'`
	for name, render := range map[string]func(io.Writer, *run.Run, *i18n.Localizer) error{"grid": GridSVG, "badge": Badge} {
		for _, lang := range []string{"en", "ja"} {
			var b bytes.Buffer
			if err := render(&b, r, localizer(t, lang)); err != nil {
				t.Fatal(err)
			}
			d := xml.NewDecoder(&b)
			for {
				_, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s %s: %v", name, lang, err)
				}
			}
		}
	}
}

// TestCard: 1200×630 PNGs, different for different runs. CARD_DIR=dir
// writes them out to look at (font_test.go draws one per language).
func TestCard(t *testing.T) {
	en := localizer(t, "en")
	u78, err := os.ReadFile("../../testdata/formats/llm-inference-bench/benchmark_results_0.7.8.json")
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]*run.Run{
		"seed":     demoRun(t, demo.SeedRun),
		"lilbench": demoRun(t, "lilbench-2x-rtx-pro-6000.json"),
		"v078":     ingested(t, ingest.Upload{Files: []archive.File{{Name: "benchmark_results.json", Data: u78}}, Fields: map[string]string{"gpu_name": "RTX 4090", "vram_gb": "24"}}),
	}
	seen := map[string]string{}
	for name, r := range runs {
		p, err := Card(r, en)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(p))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
			t.Errorf("%s: %v", name, b)
		}
		if other, ok := seen[string(p)]; ok {
			t.Errorf("cards of %s and %s are the same", name, other)
		}
		seen[string(p)] = name
		if dir := os.Getenv("CARD_DIR"); dir != "" {
			_ = os.WriteFile(dir+"/card-"+name+".png", p, 0o644)
		}
	}
}

// TestEngineLineDisplay: the engine line names the engine as the catalog
// displays it, and leaves out an engine the run does not name.
func TestEngineLineDisplay(t *testing.T) {
	l := localizer(t, "en")
	r := demoRun(t, demo.SeedRun)
	if got := EngineLineDisplay(r, l); got != "vLLM · 0.32.0 · FP8 dynamic" {
		t.Errorf("seed engine line = %q", got)
	}
	r.Engine.Name = ""
	if got := EngineLineDisplay(r, l); got != "0.32.0 · FP8 dynamic" {
		t.Errorf("unnamed engine line = %q", got)
	}
}
