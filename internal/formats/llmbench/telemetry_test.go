package llmbench_test

import (
	"math"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/formats/llmbench"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// TestHardwareSummaryPerCell reads the 0.7.8 sample's cell at context 0 and
// one request: 152.2 tok/s on 388 W of a 700 W limit, 0.392 tokens per
// joule. The tool does not judge throttling, so the verdict is unknown.
func TestHardwareSummaryPerCell(t *testing.T) {
	c := statuses(t, read(t, "benchmark_results_0.7.8.json"))["0×1"]
	if c.PowerW == nil || *c.PowerW != 388 {
		t.Fatalf("power_w = %v, want 388", c.PowerW)
	}
	if c.PowerMaxW == nil || *c.PowerMaxW != 411.28 || c.PowerLimitW == nil || *c.PowerLimitW != 700 {
		t.Errorf("max %v limit %v, want 411.28 of 700", c.PowerMaxW, c.PowerLimitW)
	}
	if c.VRAMUsedMB == nil || *c.VRAMUsedMB != 73422 || c.VRAMTotalMB == nil || *c.VRAMTotalMB != 81559 {
		t.Errorf("VRAM %v of %v", c.VRAMUsedMB, c.VRAMTotalMB)
	}
	if c.Throttle != nil || c.EnergyJ != nil {
		t.Errorf("throttle %v energy %v, want nil: the file says nothing of them", c.Throttle, c.EnergyJ)
	}
	tpj := c.TokensPerJoule()
	if tpj == nil || math.Abs(*tpj-0.392)/0.392 > 0.01 {
		t.Errorf("tokens per joule = %v, want 0.392 ± 1 %%", tpj)
	}
	if wh := run.WhPerMTok(tpj); wh == nil || math.Abs(*wh-708.6) > 1 {
		t.Errorf("Wh per million tokens = %v, want about 709", wh)
	}
	p, err := llmbench.Parse(read(t, "benchmark_results_0.7.8.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Telemetry == nil || p.Telemetry.PowerW == nil || *p.Telemetry.PowerW != 497 {
		t.Errorf("run telemetry = %+v, want hardware_run_summary's 497 W", p.Telemetry)
	}
}

// TestNoTelemetryIsNil: a 0.2.0 file has no hardware summary, and nothing
// is assumed in its place.
func TestNoTelemetryIsNil(t *testing.T) {
	data := read(t, "benchmark_results_0.2.0.json")
	for k, c := range statuses(t, data) {
		if !c.Telemetry.Empty() {
			t.Errorf("%s: telemetry %+v, want none", k, c.Telemetry)
		}
	}
	p, err := llmbench.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if p.Telemetry != nil {
		t.Errorf("run telemetry = %+v, want nil", p.Telemetry)
	}
	for _, r := range p.Prefill {
		if !r.Telemetry.Empty() {
			t.Errorf("prefill %d telemetry %+v", r.Context, r.Telemetry)
		}
	}
}

// TestHardwareSummaryNegativeRefused: a negative power is a problem that
// names its path, as every other number.
func TestHardwareSummaryNegativeRefused(t *testing.T) {
	doc := `{"metadata":{"version":"0.7.8","engine":"vllm","model":"m","concurrency_levels":[1],"context_lengths":[0]},
"results":[{"concurrency":1,"context_tokens":0,"aggregate_tps":10,"hardware_summary":{"samples":3,"power_total_avg_w":-5}}]}`
	_, err := llmbench.Parse([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "power_total_avg_w") {
		t.Errorf("err = %v, want a problem at power_total_avg_w", err)
	}
}
