package browse

import (
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// groups are an entity page's links across as "Label: href=text …".
func groups(gs []LinkGroup) []string {
	var out []string
	for _, g := range gs {
		parts := []string{g.Label}
		for _, l := range g.Links {
			parts = append(parts, l.Href+"="+l.Text)
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

func seen(kind, slug, name string) store.Found {
	f := store.Found{Kind: kind}
	f.Slug, f.Name = slug, name
	return f
}

func TestEntityPageEngine(t *testing.T) {
	l := localizer(t, "en")
	best := leaderRow("r1", 1234.56)
	best.Demo = true
	e := EntityData{Kind: store.KindEngine, Slug: "vllm", Name: "vLLM",
		Runs: []store.RunItem{item()},
		// Bests come in the page's order, whatever order the map holds
		// them in; points nobody measured are left out.
		Bests: map[store.GridPoint]store.LeaderRow{
			{Context: 131072, Concurrency: 1}: leaderRow("r3", 12),
			{Context: 0, Concurrency: 1}:      best,
		},
		Seen: []store.Found{seen(store.KindModelBase, "qwen3-8b", "Qwen3-8B"),
			seen(store.KindHardware, "rtx-4090-24gb", "RTX 4090 24GB")},
		Versions: []store.VersionRuns{{Version: "0.8.5", Runs: 3}, {Version: "0.9.1", Runs: 1200}},
	}
	p := NewEntityPage(l, e)
	if p.Kind != "Engine" || p.Name != "vLLM" || p.Description != "Engine · vLLM" {
		t.Errorf("header = %q %q %q", p.Kind, p.Name, p.Description)
	}
	if p.AllRunsHref != "/runs?engine=vllm" || p.LeaderboardHref != "/leaderboard?engine=vllm" {
		t.Errorf("hrefs = %q %q", p.AllRunsHref, p.LeaderboardHref)
	}
	if len(p.Bests) != 2 {
		t.Fatalf("bests = %+v", p.Bests)
	}
	b := p.Bests[0]
	if b.Cell != "0 context × 1" || b.Value != "1,234.6" || b.Href != "/runs/r1?cell=0-1#cell-0-1" || !b.Demo ||
		b.Hardware.Href != "/hardware/rtx-4090-24gb" {
		t.Errorf("first best = %+v", b)
	}
	if b := p.Bests[1]; b.Cell != "128K context × 1" || b.Href != "/runs/r3?cell=131072-1#cell-131072-1" {
		t.Errorf("second best = %+v", b)
	}
	// An engine's versions lead, newest first with their runs; its own kind
	// is not among the links across.
	want := []string{
		"Versions: /runs?engine=vllm&version=0.9.1=0.9.1 (1,200) /runs?engine=vllm&version=0.8.5=0.8.5 (3)",
		"Hardware: /hardware/rtx-4090-24gb=RTX 4090 24GB",
		"Models: /models/qwen3-8b=Qwen3-8B",
	}
	if got := groups(p.Groups); !slices.Equal(got, want) {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e.Versions[0].Version != "0.8.5" {
		t.Error("EntityPage reordered the caller's versions")
	}
	if len(p.Runs) != 1 || p.Runs[0].Title != "Qwen3-8B on 2× NVIDIA GeForce RTX 3090 24GB" {
		t.Errorf("runs = %+v", p.Runs)
	}
}

func TestEntityPageBaseModel(t *testing.T) {
	l := localizer(t, "en")
	p := NewEntityPage(l, EntityData{Kind: store.KindModelBase, Slug: "qwen3-8b", Name: "Qwen3-8B",
		Seen: []store.Found{seen(store.KindModel, "qwen-qwen3-8b-fp8", "Qwen/Qwen3-8B-FP8"),
			seen(store.KindEngine, "vllm", "vLLM")}})
	// A base model filters by the model parameter, lists its variants and
	// no models group of its own kind; it has no versions.
	if p.Kind != "Model" || p.AllRunsHref != "/runs?model=qwen3-8b" {
		t.Errorf("page = %q %q", p.Kind, p.AllRunsHref)
	}
	want := []string{"Hardware:", "Engines: /engines/vllm=vLLM", "Variants: /models/qwen-qwen3-8b-fp8=Qwen/Qwen3-8B-FP8"}
	if got := groups(p.Groups); !slices.Equal(got, want) {
		t.Errorf("groups = %q, want %q", got, want)
	}
	if len(p.Bests) != 0 || len(p.Runs) != 0 {
		t.Errorf("an identity without results shows %+v %+v", p.Bests, p.Runs)
	}
}

// TestEntityKinds: the handler loads what the page then shows, by the same
// tables.
func TestEntityKinds(t *testing.T) {
	for kind, want := range map[string]store.RunFilter{
		store.KindHardware:  {Hardware: "x"},
		store.KindEngine:    {Engine: "x"},
		store.KindModel:     {Model: "x"},
		store.KindModelBase: {Model: "x"},
		store.KindSubmitter: {Submitter: "x"},
	} {
		if got := EntityFilter(kind, "x"); got != want {
			t.Errorf("EntityFilter(%s) = %+v, want %+v", kind, got, want)
		}
	}
	for kind, want := range map[string][]string{
		store.KindHardware:  {store.KindEngine, store.KindModelBase},
		store.KindModelBase: {store.KindHardware, store.KindEngine, store.KindModel},
		store.KindSubmitter: {store.KindHardware, store.KindEngine, store.KindModelBase},
	} {
		if got := SeenKinds(kind); !slices.Equal(got, want) {
			t.Errorf("SeenKinds(%s) = %v, want %v", kind, got, want)
		}
	}
}
