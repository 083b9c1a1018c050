package lilbench_test

import (
	"math"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestPhaseTelemetry reads the 2-GPU sample: decode C1 @ 0 used 9,900 J
// over its 30.08 measured seconds, 329 W for both boards, at 95.8 tok/s;
// the 32K prefill was power-capped, and so the run.
func TestPhaseTelemetry(t *testing.T) {
	p, cells, prefill := parse(t, "lil_bench_result_2gpu.json")
	c := cells["0×1"]
	if c.PowerW == nil || *c.PowerW < 325 || *c.PowerW > 340 {
		t.Fatalf("0×1 power_w = %v, want 325–340 W summed over both GPUs", c.PowerW)
	}
	if c.EnergyJ == nil || *c.EnergyJ != 9900 {
		t.Errorf("0×1 energy = %v, want 9900 J", c.EnergyJ)
	}
	if c.Throttle == nil || *c.Throttle != run.ThrottleNone {
		t.Errorf("0×1 throttle = %v, want none", c.Throttle)
	}
	if c.PowerLimitW == nil || *c.PowerLimitW != 550 {
		t.Errorf("0×1 limit = %v, want 2 × 275 W", c.PowerLimitW)
	}
	if c.VRAMTotalMB == nil {
		t.Errorf("0×1 VRAM total lost: the bench's own summary has it")
	}
	if tpj := c.TokensPerJoule(); tpj == nil || math.Abs(*tpj-0.29) > 0.01 {
		t.Errorf("0×1 tokens per joule = %v, want about 0.29", tpj)
	}
	// The 64K cell ran at a trimmed 63,424 tokens, named "61k" by its phase.
	if c := cells["65536×1"]; c.Throttle == nil || c.PowerW == nil || *c.PowerW < 360 {
		t.Errorf("64K×1 = %v W throttle %v, want the 61k phase's", c.PowerW, c.Throttle)
	}
	r := prefill[32768]
	if r.Throttle == nil || *r.Throttle != run.ThrottlePowerCapped || r.ThrottleReasons["sw_power_cap"] != 0.8 {
		t.Errorf("32K prefill throttle %v reasons %v, want power_capped, sw_power_cap 0.8", r.Throttle, r.ThrottleReasons)
	}
	rt := p.Telemetry
	if rt == nil || rt.Throttle == nil || *rt.Throttle != run.ThrottlePowerCapped {
		t.Fatalf("run telemetry = %+v, want power_capped", rt)
	}
	if rt.PowerLimitMaxW == nil || *rt.PowerLimitMaxW != 600 || rt.Series == nil || len(rt.Series.Ms) < 300 {
		t.Errorf("limits max %v, series %v", rt.PowerLimitMaxW, rt.Series != nil)
	}
	if s := rt.Series; s != nil && (len(s.PowerW) != len(s.Ms) || len(s.SMMHz) != len(s.Ms) || len(s.Phases) != 5) {
		t.Errorf("series lengths %d %d %d, %d phases", len(s.Ms), len(s.PowerW), len(s.SMMHz), len(s.Phases))
	}
}
