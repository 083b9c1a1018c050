package run

// Telemetry is what the tool measured of the GPU boards while one decode
// cell or prefill row ran. Power is GPU board power summed over the GPUs,
// not the machine's power at the wall. A nil field means the file did not
// say: nothing here is ever assumed or filled in.
type Telemetry struct {
	// PowerW is the average board power: the energy over the measured
	// window ÷ its seconds where the file gives energy (lil-bench's
	// phases), else the mean of the power samples.
	PowerW *float64 `json:"power_w"`
	// PowerMaxW is the highest power sample (lil-bench: the sum of each
	// GPU's highest sample, which may not have been at the same moment).
	PowerMaxW *float64 `json:"power_max_w"`
	// PowerLimitW is the enforced power limit, summed over the GPUs.
	PowerLimitW *float64 `json:"power_limit_w"`
	// EnergyJ is the energy the boards used over the measured window.
	EnergyJ *float64 `json:"energy_j"`
	// GPUUtilPct is the GPUs' mean utilisation in percent.
	GPUUtilPct *float64 `json:"gpu_util_pct"`
	TempMaxC   *float64 `json:"temp_max_c"`
	// VRAMUsedMB is the most VRAM in use, of VRAMTotalMB, summed over
	// the GPUs.
	VRAMUsedMB  *float64 `json:"vram_used_mb"`
	VRAMTotalMB *float64 `json:"vram_total_mb"`
	// SMClockDropPct is how far the SM clock fell below its start, in
	// percent, on the GPU where it fell most (lil-bench).
	SMClockDropPct *float64 `json:"sm_clock_drop_pct"`
	// Throttle is nil when the file says nothing about throttling,
	// ThrottleNone when it was measured and none found, else the verdict
	// (ThrottlePowerCapped, ThrottleThermal, ThrottleHWSlowdown).
	Throttle *string `json:"throttle"`
	// ThrottleReasons are the clock-event reasons seen and the share of
	// samples each held (the most of any GPU), e.g. {"sw_power_cap": 0.8}.
	ThrottleReasons map[string]float64 `json:"throttle_reasons,omitempty"`
}

// Throttle verdicts, as the API spells them.
const (
	ThrottleNone        = "none"
	ThrottlePowerCapped = "power_capped"
	ThrottleThermal     = "thermal"
	ThrottleHWSlowdown  = "hw_slowdown"
)

// ThrottleVerdicts lists every throttle verdict, mildest first.
var ThrottleVerdicts = []string{ThrottleNone, ThrottlePowerCapped, ThrottleThermal, ThrottleHWSlowdown}

// Empty reports whether t holds no measurement at all.
func (t *Telemetry) Empty() bool {
	return t.PowerW == nil && t.PowerMaxW == nil && t.PowerLimitW == nil && t.EnergyJ == nil &&
		t.GPUUtilPct == nil && t.TempMaxC == nil && t.VRAMUsedMB == nil && t.VRAMTotalMB == nil &&
		t.SMClockDropPct == nil && t.Throttle == nil && len(t.ThrottleReasons) == 0
}

// Throttled reports whether the tool found the GPUs throttled.
func (t *Telemetry) Throttled() bool { return t.Throttle != nil && *t.Throttle != ThrottleNone }

// RunTelemetry is what the tool measured of the GPU boards over the whole
// run; nil on a run whose file has none.
type RunTelemetry struct {
	// Telemetry sums up the whole run where the file does
	// (llm-inference-bench's hardware_run_summary); Throttle is the worst
	// verdict of all phases (lil-bench's summary.throttle_verdict).
	Telemetry
	// PowerLimitDefaultW and PowerLimitMaxW are the boards' default and
	// highest settable power limits, summed over the GPUs.
	PowerLimitDefaultW *float64 `json:"power_limit_default_w"`
	PowerLimitMaxW     *float64 `json:"power_limit_max_w"`
	// Series is the power and SM clock over the run (lil-bench), nil
	// when the file has no such series.
	Series *PowerSeries `json:"series,omitempty"`
}

// PowerSeries is the GPUs' power and SM clock sampled over a run.
type PowerSeries struct {
	// IntervalS is the tool's sampling interval in seconds.
	IntervalS float64 `json:"interval_s"`
	// Ms are the samples' times in milliseconds from the first; PowerW
	// is the power summed over the GPUs and SMMHz the GPUs' mean SM
	// clock at each.
	Ms     []int64   `json:"ms"`
	PowerW []float64 `json:"power_w"`
	SMMHz  []float64 `json:"sm_mhz"`
	// Phases are the measured phases, in the series' time.
	Phases []Phase `json:"phases,omitempty"`
}

// Phase is a stretch of a run the tool measured: a prefill row or a
// decode cell, named as the tool names it ("decode C8 @ 61k").
type Phase struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	StartMs int64  `json:"start_ms"`
	EndMs   int64  `json:"end_ms"`
	// Throttle is the phase's verdict, as Telemetry.Throttle.
	Throttle *string `json:"throttle"`
}
