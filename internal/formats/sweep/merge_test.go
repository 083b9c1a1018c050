package sweep

import (
	"slices"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

func cellAt(ctx, conc int) run.Measurement {
	return run.Measurement{Path: "$", Context: ctx, Concurrency: conc, Metrics: run.Metrics{TotalTPS: run.F(float64(conc))}}
}

// A fact one file knows is the run's; settings the files disagree on are
// unknown; notes are joined; the earliest time wins; order does not matter.
func TestMergeFacts(t *testing.T) {
	a := &run.Parsed{Format: "f", Model: run.Model{ID: "m"}, MeasuredAt: "2026-01-05 14:22:33", Notes: []string{NoteTBTIsTPOT},
		Settings: run.Settings{DecodeMode: run.DecodeRequestCount, RequestCount: 2}, Decode: []run.Measurement{cellAt(1024, 1)}}
	b := &run.Parsed{Format: "f", Model: run.Model{ID: "m"}, MeasuredAt: "2026-01-05 14:20:00", Notes: []string{NoteTruncated, NoteTBTIsTPOT},
		Hardware: run.Hardware{GPUName: "H100", GPUCount: 2}, Engine: run.Engine{Version: "0.11.0"},
		Settings: run.Settings{DecodeMode: run.DecodeRequestCount, RequestCount: 4}, Decode: []run.Measurement{cellAt(1024, 2)}}
	p, err := Merge([]Part{{"b.json", "k2", b}, {"a.json", "k1", a}})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := Merge([]Part{{"a.json", "k1", a}, {"b.json", "k2", b}})
	switch {
	case p.Hardware.GPUName != "H100" || p.Hardware.GPUCount != 2 || p.Engine.Version != "0.11.0":
		t.Errorf("facts known by one file: %+v %+v", p.Hardware, p.Engine)
	case p.Settings.RequestCount != 0 || p.Settings.DecodeMode != run.DecodeRequestCount:
		t.Errorf("settings %+v: request count differs, mode agrees", p.Settings)
	case !slices.Equal(p.Notes, []string{NoteTBTIsTPOT, NoteTruncated}) || p.MeasuredAt != "2026-01-05 14:20:00":
		t.Errorf("notes %v, time %q", p.Notes, p.MeasuredAt)
	case len(p.Decode) != 2 || p.Decode[0].Path != `$["a.json"]` || p.DedupeKey != q.DedupeKey || p.DedupeKey != DedupeKey([]Part{{Key: "k2"}, {Key: "k1"}}):
		t.Errorf("cells %+v, keys %q %q", p.Decode, p.DedupeKey, q.DedupeKey)
	}
	// Two files each with its own model: the tie goes to the first by
	// name, and the other is named.
	c := *b
	c.Model.ID = "other"
	_, err = Merge([]Part{{"z.json", "k3", &c}, {"a.json", "k1", a}})
	if err == nil || !containsAll(err.Error(), `$["z.json"]`, "model_id") {
		t.Errorf("two models: %v", err)
	}
}

func containsAll(s string, words ...string) bool {
	for _, w := range words {
		if !strings.Contains(s, w) {
			return false
		}
	}
	return true
}
