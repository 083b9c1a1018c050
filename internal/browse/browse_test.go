package browse

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// localizer returns a localizer for tag and fails the test if any message
// it was asked for is missing.
func localizer(t *testing.T, tag string) *i18n.Localizer {
	t.Helper()
	b, err := i18n.Default()
	if err != nil {
		t.Fatal(err)
	}
	l := b.Localizer(tag)
	t.Cleanup(func() {
		if m := l.Missing(); len(m) > 0 {
			t.Errorf("%s: missing messages %v", tag, m)
		}
	})
	return l
}

func ptr(v float64) *float64 { return &v }

// item is a listed run on two RTX 3090s, as the store lists it.
func item() store.RunItem {
	return store.RunItem{
		ID: "abc234", UploadedAt: time.Date(2025, 3, 14, 23, 59, 0, 0, time.UTC), Demo: true,
		Submitter: "Sandberg", SubmitterSlug: "sandberg",
		HardwareType: "discrete_gpu", GPUName: "NVIDIA GeForce RTX 3090", GPUCount: 2, VRAMGB: 24,
		HardwareSlug: "2x-rtx-3090-24gb",
		EngineName:   "vllm", EngineSlug: "vllm", EngineVersion: "0.9.1", Quantization: "FP8",
		ModelID: "Qwen/Qwen3-8B", ModelSlug: "qwen-qwen3-8b",
		BestSingleTPS: ptr(63.46), BestPeakTPS: nil,
	}
}

func TestRuns(t *testing.T) {
	l := localizer(t, "en")
	it := item()
	bare := store.RunItem{ID: "zzz999", ModelID: "Qwen/Qwen3-8B", Submitter: "anon", GPUName: "RTX 4090"}
	runs := Runs(l, []store.RunItem{it, bare})
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	r := runs[0]
	for name, c := range map[string][2]string{
		// The title is the report page's, worded from the item's fields.
		"title":     {r.Title, "Qwen3-8B on 2× NVIDIA GeForce RTX 3090 24GB"},
		"href":      {r.Href, "/runs/abc234"},
		"hardware":  {r.Hardware.Href, "/hardware/2x-rtx-3090-24gb"},
		"engine":    {r.Engine.Href, "/engines/vllm"},
		"model":     {r.Model.Href, "/models/qwen-qwen3-8b"},
		"model as":  {r.Model.Text, "Qwen/Qwen3-8B"},
		"submitter": {r.Submitter.Href, "/submitters/sandberg"},
		"uploaded":  {r.UploadedISO, "2025-03-14"},
		"day":       {r.Uploaded, "Mar 14, 2025"},
		"single":    {r.Single, "63.5"},
		"peak":      {r.Peak, "—"},
		"version":   {r.EngineVersion, "0.9.1"},
	} {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
	if !r.Demo {
		t.Error("a demo run is not marked")
	}
	// Without slugs, the identities are text, not links to pages that
	// do not exist.
	b := runs[1]
	if b.Demo || b.Hardware.Href != "" || b.Submitter.Href != "" || b.Submitter.Text != "“anon” (claimed, not verified)" {
		t.Errorf("run without slugs = %+v", b)
	}
	if b.Title != "Qwen3-8B on RTX 4090" {
		t.Errorf("title = %q", b.Title)
	}
	if ja := Runs(localizer(t, "ja"), []store.RunItem{it})[0].Title; ja != "2× NVIDIA GeForce RTX 3090 24GB 上の Qwen3-8B" {
		t.Errorf("ja title = %q", ja)
	}
}

// options are the options of f's select name as "value=label", space
// separated, the selected one marked *.
func options(t *testing.T, f FilterForm, name string) string {
	t.Helper()
	for _, s := range f.Selects {
		if s.Name != name {
			continue
		}
		var out []string
		for _, o := range s.Options {
			v := o.Value + "=" + o.Label
			if o.Selected {
				v = "*" + v
			}
			out = append(out, v)
		}
		return strings.Join(out, " ")
	}
	t.Fatalf("no select %q in %+v", name, f)
	return ""
}

func choices() Choices {
	return Choices{
		store.KindModelBase: {{Slug: "qwen3-8b", Name: "Qwen3-8B"}},
		store.KindModel:     {{Slug: "qwen-qwen3-8b", Name: "Qwen/Qwen3-8B"}, {Slug: "qwen-qwen3-8b-fp8", Name: "Qwen/Qwen3-8B-FP8"}},
		store.KindHardware:  {{Slug: "rtx-4090-24gb", Name: "RTX 4090 24GB"}},
	}
}

func TestFilters(t *testing.T) {
	l := localizer(t, "en")
	f := Filters(l, "/runs", store.RunFilter{Model: "qwen-qwen3-8b-fp8", EngineVersion: "0.9"}, choices())
	if f.Action != "/runs" || f.ClearHref != "/runs" || f.EngineVersion != "0.9" {
		t.Errorf("form = %+v", f)
	}
	var names []string
	for _, s := range f.Selects {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "model hardware engine quant submitter" {
		t.Errorf("selects = %s", got)
	}
	// Base models come first and say they cover every variant; the current
	// variant is selected, "all" is not.
	if got := options(t, f, "model"); got !=
		"=All qwen3-8b=Qwen3-8B (all variants) qwen-qwen3-8b=Qwen/Qwen3-8B *qwen-qwen3-8b-fp8=Qwen/Qwen3-8B-FP8" {
		t.Errorf("model options = %s", got)
	}
	if got := options(t, f, "engine"); got != "=All" {
		t.Errorf("engine options without choices = %s", got)
	}
	kinds := ChoiceKinds()
	for _, k := range []string{store.KindModelBase, store.KindModel, store.KindHardware, store.KindEngine,
		store.KindQuantization, store.KindSubmitter} {
		if !slices.Contains(kinds, k) {
			t.Errorf("ChoiceKinds %v lacks %s, which a filter offers", kinds, k)
		}
	}
}

// A filter value no choice has (a typed link, a model no run names any
// more) stays selected in the form, said to match no run, so the form
// shows what emptied the list; values that are choices add nothing.
func TestFiltersKeepAValueWithoutRuns(t *testing.T) {
	l := localizer(t, "en")
	f := Filters(l, "/runs", store.RunFilter{Model: "no-such-model", Hardware: "rtx-4090-24gb"}, choices())
	if got := options(t, f, "model"); got !=
		"=All qwen3-8b=Qwen3-8B (all variants) qwen-qwen3-8b=Qwen/Qwen3-8B qwen-qwen3-8b-fp8=Qwen/Qwen3-8B-FP8 *no-such-model=no-such-model (no runs)" {
		t.Errorf("model options = %s", got)
	}
	if got := options(t, f, "hardware"); got != "=All *rtx-4090-24gb=RTX 4090 24GB" {
		t.Errorf("hardware options = %s", got)
	}
	if got := options(t, f, "engine"); got != "=All" {
		t.Errorf("engine options with no value = %s", got)
	}
}

func TestRunsPage(t *testing.T) {
	l := localizer(t, "en")
	u, _ := url.Parse("/runs?model=qwen3-8b&sort=peak&after=OLD")
	p := NewRunsPage(l, RunsList{URL: u, Filter: store.RunFilter{Model: "qwen3-8b"}, Sort: store.SortPeak,
		Items: []store.RunItem{item()}, Next: "NEXT", Paged: true}, choices())
	if p.NextHref != "/runs?after=NEXT&model=qwen3-8b&sort=peak" {
		t.Errorf("next = %q", p.NextHref)
	}
	if p.FirstHref != "/runs?model=qwen3-8b&sort=peak" {
		t.Errorf("first = %q", p.FirstHref)
	}
	if got := options(t, p.Form, "sort"); got !=
		"newest=Newest single=Best single-stream tok/s *peak=Best peak tok/s" {
		t.Errorf("sort options = %s", got)
	}
	if len(p.Runs) != 1 || p.Runs[0].ID != "abc234" {
		t.Errorf("runs = %+v", p.Runs)
	}
	// The first page of a list that fits on it has no pager.
	u, _ = url.Parse("/runs")
	if p := NewRunsPage(l, RunsList{URL: u, Sort: store.SortNewest}, nil); p.NextHref != "" || p.FirstHref != "" {
		t.Errorf("single page pager = %q %q", p.NextHref, p.FirstHref)
	}
}

func leaderRow(run string, v float64) store.LeaderRow {
	return store.LeaderRow{RunID: run, Value: v, ModelSlug: "qwen-qwen3-8b", ModelName: "Qwen/Qwen3-8B",
		HardwareSlug: "rtx-4090-24gb", HardwareName: "RTX 4090 24GB", EngineSlug: "vllm", EngineName: "vLLM",
		Submitter: "Sandberg"}
}

func TestLeaderboardPage(t *testing.T) {
	l := localizer(t, "en")
	q := store.LeaderQuery{Context: 12288, Concurrency: 8, Metric: store.MetricTTFT}
	queued := leaderRow("q1", 9000)
	queued.Demo = true
	p := NewLeaderboardPage(l, Board{Query: q, Rows: []store.LeaderRow{leaderRow("r1", 96.4), leaderRow("r2", 1234.4)},
		Queued: []store.LeaderRow{queued}, ShowQueued: true}, choices())
	if len(p.Rows) != 2 || p.Rows[0].Rank != 1 || p.Rows[1].Rank != 2 {
		t.Fatalf("rows = %+v", p.Rows)
	}
	r := p.Rows[1]
	// TTFT is told in milliseconds, and the row links the run with the
	// ranked cell highlighted.
	if r.Value != "1,234 ms" || r.Href != "/runs/r2?cell=12288-8#cell-12288-8" || r.Model.Href != "/models/qwen-qwen3-8b" {
		t.Errorf("row = %+v", r)
	}
	// A claimed name is shown bare, marked (the table's legend explains
	// the mark), not with the long wording on every row.
	if r.Submitter.Href != "" || r.Submitter.Text != "Sandberg" || !r.Claimed {
		t.Errorf("a submitter without a slug = %+v, claimed %v", r.Submitter, r.Claimed)
	}
	// Lower is better: the best row's bar is whole, the slower one's its
	// share of the best (96.4 ÷ 1,234.4 ms).
	if p.Rows[0].Bar != 100 || r.Bar != 8 {
		t.Errorf("bars = %d, %d, want 100, 8", p.Rows[0].Bar, r.Bar)
	}
	if len(p.Queued) != 1 || p.Queued[0].Rank != 0 || !p.Queued[0].Demo {
		t.Errorf("queued = %+v", p.Queued)
	}
	if p.Form.Queued == nil || !*p.Form.Queued || p.Form.Action != "/leaderboard" {
		t.Errorf("form = %+v", p.Form)
	}
	if p.Heading != "Context 12K × 8 simultaneous requests · Time to first token (lower is better)" {
		t.Errorf("heading = %q", p.Heading)
	}
	// The form offers the grid point asked for even off the usual list.
	if got := options(t, p.Form, "ctx"); got !=
		"0=0 8192=8K *12288=12K 16384=16K 32768=32K 65536=64K 131072=128K" {
		t.Errorf("context options = %s", got)
	}
	if sel := p.Form.Selects[2]; sel.Name != "metric" || !sel.Options[2].Selected {
		t.Errorf("third select = %+v", sel)
	}
	// Queued cells are loaded only when asked for.
	if p := NewLeaderboardPage(l, Board{Query: q, Queued: []store.LeaderRow{queued}}, nil); p.Queued != nil || *p.Form.Queued {
		t.Errorf("unasked queued rows = %+v", p.Queued)
	}
}

func TestHome(t *testing.T) {
	l := localizer(t, "en")
	q := store.LeaderQuery{Context: 0, Concurrency: 1, Metric: store.MetricTotal}
	d := Home(l, []store.RunItem{item()}, q, []store.LeaderRow{leaderRow("r1", 63.46)})
	if len(d.Recent) != 1 || d.Recent[0].Href != "/runs/abc234" {
		t.Errorf("recent = %+v", d.Recent)
	}
	if len(d.Teaser) != 1 || d.Teaser[0].Rank != 1 || d.Teaser[0].Value != "63.5" || d.Teaser[0].Href != "/runs/r1?cell=0-1#cell-0-1" {
		t.Errorf("teaser = %+v", d.Teaser)
	}
}

func TestSearchPage(t *testing.T) {
	l := localizer(t, "en")
	found := func(kind, slug, name string) store.Found {
		f := store.Found{Kind: kind}
		f.Slug, f.Name = slug, name
		return f
	}
	p := NewSearchPage(l, "rtx", []store.Found{
		found(store.KindHardware, "rtx-3060-12gb", "RTX 3060 12GB"),
		found(store.KindModelBase, "qwen3-8b", "Qwen3-8B"),
		found(store.KindHardware, "rtx-4090-24gb", "RTX 4090 24GB"),
		found(store.KindEngine, "vllm", "vLLM"),
	})
	var got []string
	for _, g := range p.Hits {
		got = append(got, g.Label+":")
		for _, link := range g.Links {
			got = append(got, link.Href+"="+link.Text)
		}
	}
	if g := strings.Join(got, " "); g != "Hardware: /hardware/rtx-3060-12gb=RTX 3060 12GB /hardware/rtx-4090-24gb=RTX 4090 24GB "+
		"Models: /models/qwen3-8b=Qwen3-8B Engines: /engines/vllm=vLLM" {
		t.Errorf("hits = %s", g)
	}
	if p.Query != "rtx" {
		t.Errorf("query = %q", p.Query)
	}
}

func TestLeaderboardPageTokensPerJoule(t *testing.T) {
	l := localizer(t, "en")
	q := store.LeaderQuery{Concurrency: 1, Metric: store.MetricTPJ}
	verified := leaderRow("r2", 0.196)
	verified.SubmitterSlug = "sandberg"
	p := NewLeaderboardPage(l, Board{Query: q, Rows: []store.LeaderRow{leaderRow("r1", 0.392), verified}, Unpowered: 3}, choices())
	if p.Rows[0].Value != "0.392 tok/J" || p.Rows[0].Bar != 100 || p.Rows[1].Bar != 50 {
		t.Errorf("rows = %+v", p.Rows)
	}
	if p.Rows[1].Claimed || p.Rows[1].Submitter.Text != "Sandberg" || p.Rows[1].Submitter.Href != "/submitters/sandberg" {
		t.Errorf("a verified submitter = %+v", p.Rows[1])
	}
	if p.Unpowered != "3 runs without a power measurement in this cell are not ranked." || p.Note == "" {
		t.Errorf("unpowered %q, note %q", p.Unpowered, p.Note)
	}
	p = NewLeaderboardPage(l, Board{Query: store.LeaderQuery{Concurrency: 1, Metric: store.MetricTotal}, Unpowered: 3}, choices())
	if p.Unpowered != "" || p.Note != "" {
		t.Errorf("a tok/s board says %q %q", p.Unpowered, p.Note)
	}
}
