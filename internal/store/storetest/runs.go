// Package storetest holds what the store's tests share: runs to store
// (FullRun, SeedRun, CellRun, RoundRun), helpers that store them through
// a Store and read the database beside it, and the reads of a history as
// they were before its tables were kept, which the kept tables must equal.
//
// Only tests import it. It sits above package store, which it drives as
// any caller does, as dbtest does; no package of the store imports it.
package storetest

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

var (
	f = run.F
	i = run.I
)

// FullRun returns a run with every field set somewhere, including a cell
// whose metrics are all measured zeros and one whose metrics are all nil.
func FullRun() *run.Run {
	return &run.Run{
		Submitter:         "Sandberg ✓",
		BoundVersion:      "optimistic-1:0123456789ab",
		SubmitterVerified: true,
		Profile:           "quick",
		Integrity:         "modified",
		Provenance:        run.Imported,
		Tool:              run.Tool{Name: "llm-inference-bench", Version: "0.8.0"},
		SourceFormat:      "llm-inference-bench",
		Hardware: run.Hardware{Type: run.DiscreteGPU, GPUName: "RTX 3060", GPUCount: 2, VRAMGB: 12.5,
			CPUName: "Xeon E5-2680 v4", CPUCores: 14, RAMGB: 31.25, OS: "Ubuntu 24.04", Driver: "580.178"},
		Engine: run.Engine{Name: "vllm", Version: "0.32.0", Quantization: "FP8 dynamic", Backend: "cuda",
			Build: "vllm/vllm-openai:v0.32.0", LaunchCommand: "vllm serve x \\\n  --flag 'quoted'"},
		Model: run.Model{ID: "RedHatAI/Qwen3.5-4B-FP8-dynamic", ServedName: "bench", Revision: "main"},
		Settings: run.Settings{DecodeMode: run.DecodeDuration, PrefillMode: run.PrefillIntegrated,
			SecondsPerMeasurement: 30.5, RequestCount: 7, MaxOutputTokens: 8192, KVBudgetTokens: 286720,
			MaxRunningRequests: 128, Contexts: []int{0, 16384}, Concurrencies: []int{1, 2},
			PrefillContexts: []int{8192, 16384, 32768}},
		Prefill: []run.PrefillRow{
			{Context: 8192, MeasuredContext: 8000, Status: run.Valid, Reason: "r", ReasonCode: run.ReasonNoRate,
				PromptTPS: f(2186.25), TTFTms: f(3727.5), Completed: i(3), Measured: true,
				Telemetry: run.Telemetry{PowerW: f(535.5), PowerMaxW: f(549.8), PowerLimitW: f(550), EnergyJ: f(11999),
					GPUUtilPct: f(98.5), TempMaxC: f(73), VRAMUsedMB: f(1000), VRAMTotalMB: f(2000), SMClockDropPct: f(0.3),
					Throttle: s(run.ThrottlePowerCapped), ThrottleReasons: map[string]float64{"sw_power_cap": 0.8}}},
			{Context: 16384, Status: run.Failed, PromptTPS: f(0), TTFTms: f(0), Completed: i(0), Measured: true},
			{Context: 32768, Status: run.NotMeasured, ReasonCode: run.ReasonAbsent},
		},
		Decode: []run.DecodeCell{
			{Context: 0, Concurrency: 1, Status: run.Valid, Measured: true,
				Metrics: run.Metrics{TotalTPS: f(101.5), PerRequestTPS: f(101.5), TTFTms: f(12.25),
					TBTms: f(9.75), AvgActive: f(0.99), Completed: i(42), OutputTokens: i(1 << 40), MeasuredS: f(30.01)},
				Signals: run.Signals{AvgQueue: f(0.125), QueueFraction: f(0.5)},
				Telemetry: run.Telemetry{PowerW: f(329.25), PowerMaxW: f(349.1), PowerLimitW: f(550),
					EnergyJ: f(9900), GPUUtilPct: f(62.75), TempMaxC: f(63), VRAMUsedMB: f(193740),
					VRAMTotalMB: f(195774), SMClockDropPct: f(-0.3), Throttle: s(run.ThrottleNone),
					ThrottleReasons: map[string]float64{"sw_thermal": 0.01}}},
			{Context: 0, Concurrency: 2, Status: run.Queued, Reason: "queued", ReasonCode: run.ReasonQueued,
				Measured: true, Metrics: run.Metrics{TotalTPS: f(0), PerRequestTPS: f(0), TTFTms: f(0),
					TBTms: f(0), AvgActive: f(0), Completed: i(0), OutputTokens: i(0), MeasuredS: f(0)},
				Signals: run.Signals{CapacityLimited: true, AvgQueue: f(0), QueueFraction: f(0)}},
			{Context: 16384, MeasuredContext: 16000, Concurrency: 1, Status: run.Failed,
				Reason: "loop", ReasonCode: run.ReasonLoop, Measured: true,
				Signals: run.Signals{Failed: true, FailureReason: "repetition loop", LoopDetected: true}},
			{Context: 16384, Concurrency: 2, Status: run.OverCapacity, Reason: "2 × 24576 > 286720",
				ReasonCode: run.ReasonKVBudget},
		},
		Source:       run.Source{SHA256: "ab12", Filename: "seed.json", ContentType: "application/json", Size: 5},
		MeasuredAt:   "2026-11-02T21:14:07.512334",
		UploadedAt:   time.Date(2026, 11, 3, 10, 0, 0, 123456789, time.UTC),
		RulesVersion: "v1",
		Demo:         true,
		Notes:        []string{"ttft_includes_prefill"},
		Telemetry: &run.RunTelemetry{Telemetry: run.Telemetry{PowerW: f(497), Throttle: s(run.ThrottlePowerCapped)},
			PowerLimitDefaultW: f(600), PowerLimitMaxW: f(600),
			Series: &run.PowerSeries{IntervalS: 0.5, Ms: []int64{4, 509}, PowerW: []float64{35.1, 36}, SMMHz: []float64{180, 2610},
				Phases: []run.Phase{{Name: "decode C1 @ 0", Kind: "decode", StartMs: 4, EndMs: 509, Throttle: s(run.ThrottleNone)}}}},
	}
}

// s returns a pointer to v.
func s(v string) *string { return &v }

// SeedRun returns a run the size of the seed fixture: 6 contexts × 8
// concurrencies = 48 decode cells and 5 prefill rows.
func SeedRun() *run.Run {
	r := FullRun()
	r.Settings.Contexts = []int{0, 16384, 32768, 65536, 131072, 253952}
	r.Settings.Concurrencies = []int{1, 2, 4, 8, 16, 32, 64, 128}
	r.Decode = nil
	for _, ctx := range r.Settings.Contexts {
		for _, conc := range r.Settings.Concurrencies {
			c := FullRun().Decode[0]
			c.Context, c.Concurrency = ctx, conc
			r.Decode = append(r.Decode, c)
		}
	}
	r.Prefill = nil
	for _, ctx := range []int{8192, 16384, 32768, 65536, 131072} {
		p := FullRun().Prefill[0]
		p.Context = ctx
		r.Prefill = append(r.Prefill, p)
	}
	return r
}

// MustInsertRun inserts r under key and fails the test unless it is new.
func MustInsertRun(t testing.TB, s *store.Store, r *run.Run, key string) string {
	t.Helper()
	id, created, err := s.InsertRun(context.Background(), r, key, []byte(fmt.Sprintf("source of %s", key)))
	if err != nil {
		t.Fatal(err)
	}
	if !created {
		t.Fatalf("InsertRun(%q): created = false, want true", key)
	}
	return id
}

// InsertBothWays stores n runs made by mk, the first half one upload at
// a time and the rest in one InsertRuns batch (the bulk path), under
// dedupe keys prefix0, prefix1, …, and returns their ids in order.
func InsertBothWays(t testing.TB, s *store.Store, n int, prefix string, mk func(i int) *run.Run) []string {
	t.Helper()
	var ids []string
	var batch []store.NewRun
	for i := range n {
		r := mk(i)
		if i < n/2 {
			ids = append(ids, MustInsertRun(t, s, r, fmt.Sprintf("%s%d", prefix, i)))
			continue
		}
		batch = append(batch, store.NewRun{Run: r, DedupeKey: fmt.Sprintf("%s%d", prefix, i), Source: []byte("s")})
	}
	res, err := s.InsertRuns(context.Background(), batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range res {
		ids = append(ids, in.ID)
	}
	return ids
}

// HideThenShowAndDelete hides the runs in holders (the holders of some
// bests, in id order) and checks, then as account, their owner, shows
// the first again and deletes the second, takes it out of *ids (which
// check reads) and checks again.
func HideThenShowAndDelete(t testing.TB, s *store.Store, account int64, holders map[string]bool, ids *[]string,
	check func(step string), hiddenStep string) {
	t.Helper()
	ctx := context.Background()
	hidden := slices.Sorted(maps.Keys(holders))
	for _, id := range hidden {
		if err := s.HideRun(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	check(hiddenStep)
	if err := s.SetOwnRunHidden(ctx, hidden[0], account, false); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteOwnRun(ctx, hidden[1], account); err != nil {
		t.Fatal(err)
	}
	*ids = slices.DeleteFunc(*ids, func(id string) bool { return id == hidden[1] })
	check("one shown again, one deleted")
}

// DeriveFailedAndFlagged derives two runs again under rules v2: the
// first with every decode cell failed (it loses its valid cells), the
// second flagged above the physical bound.
func DeriveFailedAndFlagged(t testing.TB, s *store.Store, ids []string) {
	t.Helper()
	ctx := context.Background()
	for i, id := range ids {
		r, err := s.GetRun(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		r.RulesVersion = "v2"
		for j := range r.Decode {
			if i == 0 {
				r.Decode[j].Status = run.Failed
			}
		}
		if i == 1 {
			r.Flags = []string{run.FlagAboveBound}
		}
		if err := s.ReplaceDerived(ctx, id, r); err != nil {
			t.Fatal(err)
		}
	}
}

// CellRun is a one-cell run (0 × 1) of model on gpu with the given status
// and numbers, uploaded at minute min of a fixed day.
func CellRun(model, gpu, engine string, status run.Status, total, ttft float64, min int) *run.Run {
	// Verified: only a proven name is a submitter identity to filter by.
	r := &run.Run{Submitter: "Sandberg ✓", SubmitterVerified: true, Provenance: run.Measured, RulesVersion: "v1",
		Hardware: run.Hardware{Type: run.DiscreteGPU, GPUName: gpu, GPUCount: 1, VRAMGB: 24},
		Engine:   run.Engine{Name: engine, Version: "0.32.0", Quantization: "FP8"},
		Model:    run.Model{ID: model},
		Settings: run.Settings{Contexts: []int{0}, Concurrencies: []int{1}}}
	r.Decode = []run.DecodeCell{{Context: 0, Concurrency: 1, Status: status, Measured: true,
		Metrics: run.Metrics{TotalTPS: f(total), PerRequestTPS: f(total), TTFTms: f(ttft)}}}
	r.UploadedAt = time.Date(2026, 1, 1, 0, min, 0, 0, time.UTC)
	return r
}

// LeaderIDs is the leaderboard lq asks of s, as the ids of its rows in
// order (50 rows when lq names no limit).
func LeaderIDs(t *testing.T, s *store.Store, lq store.LeaderQuery) []string {
	t.Helper()
	if lq.Limit == 0 {
		lq.Limit = 50
	}
	rows, err := s.Leaderboard(context.Background(), lq)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.RunID)
	}
	return ids
}

// RoundRun is a seed-sized run (48 cells, all valid) whose identities are
// new in round: its GPU, engine, model, quantization and submitter were
// never stored before that round. Writer w's numbers differ from the other
// writers', so the best cells change hands while the writers race.
func RoundRun(round, w int) *run.Run {
	r := SeedRun()
	r.Profile = ""             // quick runs never rank: these must reach best_cells
	r.SubmitterVerified = true // a claimed name would be no identity
	r.Submitter = fmt.Sprintf("racer %d", round)
	r.Hardware.GPUName = fmt.Sprintf("Racecard %d", round)
	r.Engine.Name = fmt.Sprintf("raceengine-%d", round)
	r.Engine.Quantization = fmt.Sprintf("RaceQ%d", round)
	r.Model.ID = fmt.Sprintf("race-org/race-model-%d-FP8", round)
	for i := range r.Decode {
		m := &r.Decode[i].Metrics
		m.TotalTPS = f(100 + float64(w) + float64(i))
		m.PerRequestTPS = f(50 + float64((w*7+i)%16))
		m.TTFTms = f(10 + float64((w*5+i)%16))
	}
	return r
}

// OpenWide opens a second store on the test database at dbURL with conns
// connections, so that conns transactions really run at once (the pool's
// default is the number of CPUs, as few as 4).
func OpenWide(t *testing.T, dbURL string, conns int) *store.Store {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", fmt.Sprint(conns))
	u.RawQuery = q.Encode()
	s, err := store.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close) // before dbtest drops the database: cleanups run last first
	return s
}
