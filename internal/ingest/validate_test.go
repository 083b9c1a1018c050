package ingest

import (
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Each sanity limit refuses the number just above it, naming the cell and
// the metric, and accepts the limit itself.
func TestSanityLimits(t *testing.T) {
	for name, max := range sanityLimits {
		for _, v := range []float64{max, max * 1.01} {
			m := run.Measurement{Path: "$.results[0]", Context: 0, Concurrency: 1}
			switch name {
			case "total_tps":
				m.TotalTPS = run.F(v)
			case "per_request_tps":
				m.PerRequestTPS = run.F(v)
			case "ttft_ms":
				m.TTFTms = run.F(v)
			case "tbt_ms":
				m.TBTms = run.F(v)
			case "measured_s":
				m.MeasuredS = run.F(v)
			case "completed":
				m.Completed = run.I(int64(v))
			case "output_tokens":
				m.OutputTokens = run.I(int64(v))
			case "power_w":
				m.PowerW = run.F(v)
			case "power_max_w":
				m.PowerMaxW = run.F(v)
			case "power_limit_w":
				m.PowerLimitW = run.F(v)
			case "energy_j":
				m.EnergyJ = run.F(v)
			case "gpu_util_pct":
				m.GPUUtilPct = run.F(v)
			case "temp_max_c":
				m.TempMaxC = run.F(v)
			case "vram_used_mb":
				m.VRAMUsedMB = run.F(v)
			case "vram_total_mb":
				m.VRAMTotalMB = run.F(v)
			default:
				t.Fatalf("no case for limit %s", name)
			}
			p := &run.Parsed{Decode: []run.Measurement{m},
				Settings: run.Settings{Contexts: []int{0}, Concurrencies: []int{1}}}
			err := validate(p)
			if v == max {
				if err != nil {
					t.Errorf("%s at its limit %g refused: %v", name, max, err)
				}
				continue
			}
			pe, ok := problem.As(err)
			if !ok || pe.Problems[0].Key != "problem.beyond_limit" || pe.Problems[0].Path != "$.results[0]."+name {
				t.Errorf("%s = %g: %v, want problem.beyond_limit at $.results[0].%s", name, v, err, name)
			}
		}
	}
}

// An unknown throttle verdict (an export edited by hand) is refused at its
// path, naming the verdicts the pages know.
func TestUnknownThrottleRefused(t *testing.T) {
	m := run.Measurement{Path: "$.decode[0]", Context: 0, Concurrency: 1}
	m.Throttle = new(string)
	*m.Throttle = "melting"
	err := validate(&run.Parsed{Decode: []run.Measurement{m}, Settings: run.Settings{Contexts: []int{0}, Concurrencies: []int{1}}})
	pe, ok := problem.As(err)
	if !ok || pe.Problems[0].Path != "$.decode[0].throttle" || pe.Problems[0].Key != "problem.field_enum" {
		t.Errorf("err = %v, want problem.field_enum at $.decode[0].throttle", err)
	}
}
