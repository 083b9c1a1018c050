package store_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// storeSample uploads a sample file of testdata/formats as the site would
// and reads the run back.
func storeSample(t *testing.T, s *store.Store, name string) *run.Run {
	t.Helper()
	body, err := os.ReadFile("../../testdata/formats/" + name)
	if err != nil {
		t.Fatal(err)
	}
	r, key, err := ingest.Prepare(ingest.Upload{Files: []archive.File{{Data: body}}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := s.InsertRun(context.Background(), r, key, body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func cellAt(r *run.Run, ctx, conc int) *run.DecodeCell {
	for i := range r.Decode {
		if c := &r.Decode[i]; c.Context == ctx && c.Concurrency == conc {
			return c
		}
	}
	return &run.DecodeCell{}
}

// TestTelemetryStored: the acceptance numbers survive the store. The 0.7.8
// sample's 0×1 cell ran on 388 W, 0.392 tokens per joule, no verdict; the
// lil-bench 2-GPU sample's 0×1 cell on 325–340 W for both boards, verdict
// none, its 32K prefill row power-capped; a 0.2.0 file has nothing.
func TestTelemetryStored(t *testing.T) {
	s, _ := dbtest.New(t)
	r := storeSample(t, s, "llm-inference-bench/benchmark_results_0.7.8.json")
	c := cellAt(r, 0, 1)
	if c.PowerW == nil || *c.PowerW != 388 || c.Throttle != nil {
		t.Errorf("0.7.8 0×1: %v W, throttle %v; want 388 W, nil", c.PowerW, c.Throttle)
	}
	if tpj := c.TokensPerJoule(); tpj == nil || *tpj < 0.392*0.99 || *tpj > 0.392*1.01 {
		t.Errorf("0.7.8 0×1 tokens per joule = %v, want 0.392 ± 1 %%", tpj)
	}

	r = storeSample(t, s, "lil-bench/lil_bench_result_2gpu.json")
	c = cellAt(r, 0, 1)
	if c.PowerW == nil || *c.PowerW < 325 || *c.PowerW > 340 || c.Throttle == nil || *c.Throttle != run.ThrottleNone {
		t.Errorf("lil-bench 0×1: %v W, throttle %v; want 325–340 W, none", c.PowerW, c.Throttle)
	}
	var prefill *run.PrefillRow
	for i := range r.Prefill {
		if r.Prefill[i].Context == 32768 {
			prefill = &r.Prefill[i]
		}
	}
	if prefill == nil || prefill.Throttle == nil || *prefill.Throttle != run.ThrottlePowerCapped {
		t.Errorf("lil-bench 32K prefill = %+v, want power_capped", prefill)
	}
	if r.Telemetry == nil || r.Telemetry.Series == nil || len(r.Telemetry.Series.PowerW) < 300 {
		t.Errorf("lil-bench run telemetry = %+v, want the power series", r.Telemetry)
	}

	r = storeSample(t, s, "llm-inference-bench/benchmark_results_0.2.0.json")
	for _, c := range r.Decode {
		if !c.Telemetry.Empty() {
			t.Errorf("0.2.0 %d×%d telemetry %+v, want none", c.Context, c.Concurrency, c.Telemetry)
		}
	}
	if r.Telemetry != nil {
		t.Errorf("0.2.0 run telemetry %+v, want nil", r.Telemetry)
	}
}

// TestRederiveFillsTelemetry: a run stored before telemetry was read (its
// cells without it) gets it from its kept source when derived again.
func TestRederiveFillsTelemetry(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	body, err := os.ReadFile("../../testdata/formats/lil-bench/lil_bench_result_2gpu.json")
	if err != nil {
		t.Fatal(err)
	}
	r, key, err := ingest.Prepare(ingest.Upload{Files: []archive.File{{Data: body}}}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r.Telemetry = nil
	for i := range r.Decode {
		r.Decode[i].Telemetry = run.Telemetry{}
	}
	for i := range r.Prefill {
		r.Prefill[i].Telemetry = run.Telemetry{}
	}
	id, _, err := s.InsertRun(ctx, r, key, body)
	if err != nil {
		t.Fatal(err)
	}
	if err := ingest.Rederive(ctx, s, id); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if c := cellAt(got, 0, 1); c.PowerW == nil || got.Telemetry == nil || got.Telemetry.Throttle == nil {
		t.Errorf("after re-derivation: 0×1 %v W, run telemetry %+v; want both filled", c.PowerW, got.Telemetry)
	}
}
