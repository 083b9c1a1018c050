package llmbench

import "github.com/speedmatrix/speedmatrix/internal/run"

// telemetry reads a hardware_summary (0.4.0+) at path: the mean and peak
// board power, the power limit, utilisation, temperature and VRAM, all
// summed over the GPUs. A summary without samples ({} when nvidia-smi was
// missing) says nothing, and a power of 0 is a reading that failed, not a
// board drawing nothing. The tool does not judge throttling, so Throttle
// stays nil.
func (p *parser) telemetry(path string, s *hardwareSummary) run.Telemetry {
	var t run.Telemetry
	if s == nil {
		return t
	}
	if n, ok := p.problems.MeasureValue(path, ".samples", s.Samples); !ok || n == 0 {
		return t
	}
	positive := func(field string, v *float64) *float64 {
		x, ok := p.problems.MeasureValue(path, field, v)
		if !ok || x == 0 {
			return nil
		}
		return &x
	}
	t.PowerW = positive(".power_total_avg_w", s.PowerAvgW)
	t.PowerMaxW = positive(".power_total_max_w", s.PowerMaxW)
	t.PowerLimitW = positive(".power_limit_total_w", s.PowerLimitW)
	t.GPUUtilPct = p.problems.MeasureAt(path, ".gpu_util_avg_pct", s.GPUUtilAvg)
	t.TempMaxC = positive(".temp_max_c", s.TempMaxC)
	t.VRAMUsedMB = positive(".vram_used_max_mb", s.VRAMUsedMax)
	if s.VRAMTotalMB > 0 {
		t.VRAMTotalMB = run.F(s.VRAMTotalMB)
	}
	return t
}

// runTelemetry is the whole run's hardware_run_summary, nil when the file
// has none with samples.
func (p *parser) runTelemetry() *run.RunTelemetry {
	t := p.telemetry(p.path(".hardware_run_summary"), p.doc.HardwareRunSummary)
	if t.Empty() {
		return nil
	}
	return &run.RunTelemetry{Telemetry: t}
}
