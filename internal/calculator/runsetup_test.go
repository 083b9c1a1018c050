package calculator_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/demo"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

func seedRun(t *testing.T) *run.Run {
	t.Helper()
	u, err := demo.Upload(demo.SeedRun)
	if err != nil {
		t.Fatal(err)
	}
	r, _, err := ingest.Prepare(u, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The seed run's facts resolve to the worked example: FP8 weights with a
// BF16 head, an int4 KV cache and two MTP drafts, on an RTX 3060 12GB;
// measured against the bound without speculation its cells reach the
// efficiencies worked out by hand (63.5 of 72.8, 428.8 of 508, 31.6 of 69.1).
func TestSeedRunAgainstItsBound(t *testing.T) {
	r := seedRun(t)
	s := calculator.ForRun(r)
	if !s.Known() || s.GPU.ID != "rtx-3060-12gb" || s.Model.ID != "Qwen/Qwen3.5-4B" ||
		s.Weights.Code != "fp8" || s.Head.Code != "bf16" || s.KV != "int4" || s.SpecTokens != 2 {
		t.Fatalf("seed setup %+v missing %v", s, s.Missing)
	}
	want := map[[2]int]float64{{0, 1}: 0.87, {0, 8}: 0.84, {32768, 1}: 0.46}
	for i := range r.Decode {
		c := &r.Decode[i]
		w, ok := want[[2]int{c.Context, c.Concurrency}]
		if !ok {
			continue
		}
		b := s.Cell(c)
		if !b.OK || math.Abs(b.Efficiency-w) > 0.01 {
			t.Errorf("%d × %d: efficiency %.3f (bound %.1f), want %.2f", c.Context, c.Concurrency, b.Efficiency, b.BoundTPS, w)
		}
		delete(want, [2]int{c.Context, c.Concurrency})
	}
	if len(want) > 0 {
		t.Errorf("cells not found: %v", want)
	}
	if f := calculator.Flags(r); len(f) != 0 {
		t.Errorf("seed run flagged %v", f)
	}
	if m, n := s.MedianEfficiency(r); n < 10 || m <= 0.1 || m >= 1 {
		t.Errorf("median efficiency %.3f over %d cells", m, n)
	}
}

// A run claiming ten times the seed's rates is above the optimistic bound
// and flagged; one that declares no launch command still gets the allowance
// for undeclared speculation, so twice the seed's rate is not.
func TestFlagAboveBound(t *testing.T) {
	for _, c := range []struct {
		factor  float64
		command string
		flagged bool
	}{{10, "keep", true}, {2, "", false}, {5, "keep", true}} {
		r := seedRun(t)
		if c.command == "" {
			r.Engine.LaunchCommand = ""
		}
		for i := range r.Decode {
			if v := r.Decode[i].TotalTPS; v != nil {
				*v *= c.factor
			}
		}
		if got := len(calculator.Flags(r)) > 0; got != c.flagged {
			t.Errorf("×%.1f (command %q): flagged %v, want %v", c.factor, c.command, got, c.flagged)
		}
	}
}

func TestMissingFacts(t *testing.T) {
	r := seedRun(t)
	r.Hardware.GPUName, r.Model.ID, r.Model.ServedName, r.Engine.Quantization = "Mystery GPU 9000", "acme/unknown-7b", "", ""
	s := calculator.ForRun(r)
	if len(s.Missing) != 3 || s.Bound(0, 1) != 0 || s.Optimistic(0, 1) != 0 {
		t.Errorf("missing %v, bound %v", s.Missing, s.Bound(0, 1))
	}
	for _, c := range []struct{ q, id, w, h string }{
		{"Q4_K_M", "unsloth/Qwen3-8B-GGUF", "q4_k_m", "q6_k"}, {"", "Qwen/Qwen3-8B-AWQ", "int4", "bf16"},
		{"BF16", "meta-llama/Llama-3.1-8B-Instruct", "bf16", "bf16"}, {"MXFP4", "openai/gpt-oss-20b", "mxfp4", "bf16"},
	} {
		w, h, ok := calculator.PrecisionFor(c.q, c.id)
		if !ok || w.Code != c.w || h.Code != c.h {
			t.Errorf("PrecisionFor(%q, %q) = %s, %s, %v", c.q, c.id, w.Code, h.Code, ok)
		}
	}
}

// Every machine the demo runs on has a row, found the way a run's hardware
// finds it.
func TestDemoHardwareHasRows(t *testing.T) {
	d, err := calculator.Data()
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range demo.Hardware() {
		if _, ok := d.GPUFor(h); !ok {
			t.Errorf("demo GPU %q (%v GB): no row", h.GPUName, h.VRAMGB)
		}
	}
}

// A setup's bound for each cell is the calculator's own answer for that
// cell's input: the counts ForRun keeps are the ones Calculate counts, and a
// setup made without ForRun counts them itself.
func TestSetupBoundIsCalculate(t *testing.T) {
	s := calculator.ForRun(seedRun(t))
	bare := calculator.RunSetup{GPU: s.GPU, Count: s.Count, Model: s.Model, Weights: s.Weights,
		Head: s.Head, KV: s.KV, KVDeclared: s.KVDeclared, SpecTokens: s.SpecTokens, SpecDeclared: s.SpecDeclared}
	for _, ctx := range []int{0, 8192, 131072} {
		for _, conc := range []int{0, 1, 8, 64} {
			want := calculator.Calculate(s.Input(ctx, conc)).Bound.TotalTPS
			if got := s.Bound(ctx, conc); got != want || want <= 0 {
				t.Errorf("%d × %d: Bound %v, Calculate %v", ctx, conc, got, want)
			}
			if got := bare.Bound(ctx, conc); got != want {
				t.Errorf("%d × %d: Bound of a bare setup %v, Calculate %v", ctx, conc, got, want)
			}
			if a, b := s.Optimistic(ctx, conc), bare.Optimistic(ctx, conc); a != b || a < want {
				t.Errorf("%d × %d: Optimistic %v and bare %v, bound %v", ctx, conc, a, b, want)
			}
		}
	}
}

// A cell drawing more than its power limit by over a tenth, or more than
// the boards' highest settable limit, or, where the file gives neither,
// more than the GPU table's board power times the GPUs, flags the run;
// within them it does not, a GPU the table knows no board power of is
// never flagged by it, and a run without telemetry is never flagged for
// power.
func TestFlagPowerImplausible(t *testing.T) {
	const h100 = "NVIDIA H100 80GB HBM3" // the table's H100 SXM: 700 W
	for _, c := range []struct {
		name         string
		gpu          string // "" keeps the seed run's RTX 3060
		gpus         int
		power, limit float64
		maxLimit     float64
		flagged      bool
	}{
		{"at the limit", "", 1, 388, 700, 0, false},
		{"overshoot within a tenth", "", 1, 760, 700, 0, false},
		{"a fifth above the limit", "", 1, 840, 700, 0, true},
		{"above the highest limit", "", 1, 700, 1000, 600, true},
		{"no telemetry", "", 1, 0, 0, 0, false},
		{"above an H100's board power", h100, 1, 800, 0, 0, true},
		{"within an H100's board power", h100, 1, 760, 0, 0, false},
		{"within two H100s' board power", h100, 2, 1500, 0, 0, false},
		{"above two H100s' board power", h100, 2, 1600, 0, 0, true},
		{"a GeForce card has no known maximum", "", 1, 800, 0, 0, false},
	} {
		r := seedRun(t)
		if c.gpu != "" {
			r.Hardware.GPUName, r.Hardware.VRAMGB = c.gpu, 80
			if id := calculator.ForRun(r).GPU.ID; id != "h100-sxm-80gb" {
				t.Fatalf("%s: the table's row is %q", c.name, id)
			}
		}
		r.Hardware.GPUCount = c.gpus
		r.Telemetry = nil
		r.Decode[0].Telemetry = run.Telemetry{}
		if c.power > 0 {
			r.Decode[0].PowerW = run.F(c.power)
		}
		if c.limit > 0 {
			r.Decode[0].PowerLimitW = run.F(c.limit)
		}
		if c.maxLimit > 0 {
			r.Telemetry = &run.RunTelemetry{PowerLimitMaxW: run.F(c.maxLimit)}
		}
		got := slices.Contains(calculator.Flags(r), run.FlagPowerImplausible)
		if got != c.flagged {
			t.Errorf("%s: flagged %v, want %v", c.name, got, c.flagged)
		}
		if got && !run.Unrankable(calculator.Flags(r)) {
			t.Errorf("%s: flagged but still rankable", c.name)
		}
	}
}
