package templates

import (
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/differs"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/regressview"
	"github.com/speedmatrix/speedmatrix/internal/report/reporttest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

const seedLaunch = `vllm serve RedHatAI/Qwen3.5-4B-FP8-dynamic --max-num-seqs 128 ` +
	`--speculative-config {"method":"mtp","num_speculative_tokens":2} --kv-cache-dtype int4_per_token_head`

// seedAndFaster is the seed-shaped run and a copy with an fp8 KV cache,
// every total tok/s 1.1× higher.
func seedAndFaster() (this, other *run.Run) {
	this, other = reporttest.Run(), reporttest.Run()
	this.Engine.LaunchCommand = seedLaunch
	other.ID = "fast01"
	other.Engine.LaunchCommand = strings.Replace(seedLaunch, "int4_per_token_head", "fp8", 1)
	for i := range other.Decode {
		if v := other.Decode[i].TotalTPS; v != nil {
			other.Decode[i].TotalTPS = run.F(*v * 1.1)
		}
	}
	return this, other
}

// seedEntry is the seed run at 0.32.0 against a copy at 0.31.0 1.25×
// faster, as Store.VersionChanges reads it.
func seedEntry() store.VersionChange {
	cur, old := reporttest.Run(), reporttest.Run()
	cur.Engine.LaunchCommand = seedLaunch
	old.ID, old.Engine.Version = "old031", "0.31.0"
	old.Engine.LaunchCommand = seedLaunch + " --max-model-len 8192"
	var pts []regress.Point
	for _, c := range cur.Decode {
		if c.Status == run.Valid {
			pts = append(pts, regress.Point{Version: "0.32.0", Cell: regress.Cell{Context: c.Context, Concurrency: c.Concurrency},
				TPS: *c.TotalTPS, RunID: cur.ID, UploadedAt: time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC)},
				regress.Point{Version: "0.31.0", Cell: regress.Cell{Context: c.Context, Concurrency: c.Concurrency},
					TPS: *c.TotalTPS * 1.25, RunID: old.ID})
		}
	}
	return store.VersionChange{Setup: store.VersionSetup{Hardware: "rtx-3060-12gb", Engine: "vllm",
		Model: "redhatai-qwen3-5-4b-fp8-dynamic", Quantization: "fp8-dynamic"},
		Entry: regress.Entry{Change: regress.Detect(pts)[0], Old: old, New: cur}}
}

func TestWhatDiffersRenders(t *testing.T) {
	for _, tag := range []string{"en", "ko", "fr", "de", "es", "ja", "pt-BR", "zh-Hans"} {
		doc := render(t, tag, func(l *i18n.Localizer) templ.Component {
			this, other := seedAndFaster()
			s := differs.NewSection(l, this, []differs.Rival{{Run: other, Cells: differs.Cells(this)}})
			return WhatDiffers(s, regressview.Links(l, []store.VersionChange{seedEntry()}))
		})
		rows := doc.Find(".differs-rows tbody tr")
		if first := strings.Join(strings.Fields(rows.Eq(0).Find("th").Text()), " "); tag == "en" &&
			first != "KV-cache type · moves decode speed" {
			t.Errorf("%s: first row %q, want the KV-cache type, marked", tag, first)
		}
		flags := doc.Find(".differs-rows code")
		if flags.Length() != 1 || flags.Text() != "--kv-cache-dtype" {
			t.Errorf("%s: flag rows %q", tag, flags.Text())
		}
		if gap := doc.Find(".differs-gaps tbody tr").First().Find(".change").Text(); !strings.Contains(gap, "9") {
			t.Errorf("%s: gap at 0 × 1 %q, want −9 %%", tag, gap)
		}
		if href, _ := doc.Find(".regression-links a").Attr("href"); href != "/regressions?engine=vllm&hardware=rtx-3060-12gb#change-old031-k3x9q2" {
			t.Errorf("%s: regression link %q", tag, href)
		}
	}
	doc := render(t, "en", func(l *i18n.Localizer) templ.Component {
		return WhatDiffers(differs.NewSection(l, reporttest.Run(), nil), nil)
	})
	if doc.Find(".notes").Length() != 1 {
		t.Error("no rival: no note")
	}
}

func TestRegressionsPageRenders(t *testing.T) {
	for _, tag := range []string{"en", "ko", "fr", "de", "es", "ja", "pt-BR", "zh-Hans"} {
		doc := render(t, tag, func(l *i18n.Localizer) templ.Component {
			b, _ := i18n.Default()
			p := regressview.NewPage(l, b.Localizer("en"), "https://speedmatrix.example", "vllm", "",
				regressview.Choices{Engines: []catalog.Identity{{Slug: "vllm", Name: "vLLM"}, {Slug: "sglang", Name: "SGLang"}}},
				[]store.VersionChange{seedEntry()})
			return RegressionsPage(base(l, regressview.Path, p.Title), p)
		})
		item := doc.Find("section.regression")
		if id, _ := item.Attr("id"); id != "change-old031-k3x9q2" {
			t.Fatalf("%s: item id %q", tag, id)
		}
		if h := item.Find("h2").Text(); !strings.Contains(h, "vLLM 0.31.0 → 0.32.0") {
			t.Errorf("%s: heading %q", tag, h)
		}
		if c := item.Find(".median b").Text(); !strings.Contains(c, "20") {
			t.Errorf("%s: change %q", tag, c)
		}
		md := item.Find("textarea").Text()
		for _, want := range []string{"0.31.0", "0.32.0", "https://speedmatrix.example/runs/old031",
			"https://speedmatrix.example/runs/k3x9q2", seedLaunch, seedLaunch + " --max-model-len 8192"} {
			if !strings.Contains(md, want) {
				t.Errorf("%s: report text lacks %q", tag, want)
			}
		}
		if href, _ := item.Find("a.issue-link").Attr("href"); !strings.HasPrefix(href, "https://github.com/vllm-project/vllm/issues/new?") {
			t.Errorf("%s: issue link %q", tag, href)
		}
		if item.Find(".setup-changed").Length() != 1 || !strings.Contains(item.Find("table code").Text(), "--max-model-len") {
			t.Errorf("%s: setup change not shown", tag)
		}
		if sel, _ := doc.Find("select[name=engine] option[selected]").Attr("value"); sel != "vllm" {
			t.Errorf("%s: engine filter %q", tag, sel)
		}
		if href, _ := doc.Find("a[type='application/atom+xml']").Attr("href"); href != "/regressions.atom?engine=vllm" {
			t.Errorf("%s: feed %q", tag, href)
		}
	}
}
