package ingest

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// Limits of a grid. Real matrices have around 6 × 8 cells; 64 × 64 leaves
// room for any sweep while keeping a page and a transaction small.
const (
	MaxContexts      = 64
	MaxConcurrencies = 64
	maxContext       = 16 << 20 // 16M tokens
	maxConcurrency   = 1 << 20
)

// sanityLimits are numbers no real run produces, by metric: ten million
// tok/s is beyond a rack of the fastest accelerators serving the smallest
// model; 10^8 ms is more than a day for one token; 10^7 s is four months
// of measuring; 10^12 tokens are years of a large cluster. A file beyond
// them is broken or made up, and printing its 309-digit numbers on a page
// helps nobody, so it is refused rather than stored.
var sanityLimits = map[string]float64{
	"total_tps": 1e7, "per_request_tps": 1e7, "ttft_ms": 1e8, "tbt_ms": 1e8, "measured_s": 1e7,
	"completed": 1e12, "output_tokens": 1e12,
	// A megawatt of GPU boards, a day of it, 100 % and 1,000 °C: beyond any
	// machine a run is measured on.
	"power_w": 1e6, "power_max_w": 1e6, "power_limit_w": 1e6, "energy_j": 1e11,
	"gpu_util_pct": 100, "temp_max_c": 1000, "vram_used_mb": 1e9, "vram_total_mb": 1e9,
}

// validate checks what every format shares: the grid's size, duplicate
// cells, numbers that must be finite and non-negative, and text PostgreSQL
// can store. Format parsers have already checked their own fields with their
// own paths.
func validate(p *run.Parsed) error {
	probs := problem.List{Kind: problem.Invalid}
	contexts, concurrencies := status.Grid(p)
	switch {
	case len(contexts) == 0 || len(concurrencies) == 0:
		probs.Add("$", "problem.empty_grid", nil)
	case len(contexts) > MaxContexts:
		probs.Add("$", "problem.too_many_contexts", map[string]any{"Count": len(contexts), "Max": MaxContexts})
	case len(concurrencies) > MaxConcurrencies:
		probs.Add("$", "problem.too_many_concurrencies", map[string]any{"Count": len(concurrencies), "Max": MaxConcurrencies})
	}
	for _, c := range contexts {
		if c < 0 || c > maxContext {
			probs.Add("$", "problem.context_range", map[string]any{"Value": c})
		}
	}
	for _, c := range concurrencies {
		if c < 1 || c > maxConcurrency {
			probs.Add("$", "problem.concurrency", map[string]any{"Value": c})
		}
	}
	seen := map[[2]int]string{}
	for _, m := range p.Decode {
		k := [2]int{m.Context, m.Concurrency}
		if first, dup := seen[k]; dup {
			probs.Add(m.Path, "problem.duplicate_cell", map[string]any{"Context": m.Context, "Concurrency": m.Concurrency, "First": first})
			continue
		}
		seen[k] = m.Path
		checkMetrics(&probs, m.Path, &m.Metrics)
		checkTelemetry(&probs, m.Path, &m.Telemetry)
	}
	seenPrefill := map[int]string{}
	for _, r := range p.Prefill {
		if first, dup := seenPrefill[r.Context]; dup {
			probs.Add(r.Path, "problem.duplicate_prefill", map[string]any{"Context": r.Context, "First": first})
		}
		seenPrefill[r.Context] = r.Path
		checkNumber(&probs, r.Path, "prompt_tps", r.PromptTPS)
		checkNumber(&probs, r.Path, "ttft_ms", r.TTFTms)
		if r.TTFTms != nil {
			checkLimit(&probs, r.Path, "ttft_ms", *r.TTFTms, sanityLimits["ttft_ms"])
		}
		checkTelemetry(&probs, r.Path, &r.Telemetry)
	}
	if p.Telemetry != nil {
		checkTelemetry(&probs, "$.telemetry", &p.Telemetry.Telemetry)
	}
	checkStrings(&probs, p)
	return probs.Err()
}

// checkMetrics checks a cell's metrics (at is its path). The paths of
// the fields are only built for a problem: an upload checks hundreds of
// numbers, and building each path was a tenth of its allocations.
func checkMetrics(probs *problem.List, at string, m *run.Metrics) {
	for _, f := range [...]struct {
		name string
		v    *float64
	}{{"total_tps", m.TotalTPS}, {"per_request_tps", m.PerRequestTPS}, {"ttft_ms", m.TTFTms},
		{"tbt_ms", m.TBTms}, {"avg_active", m.AvgActive}, {"measured_s", m.MeasuredS}} {
		checkNumber(probs, at, f.name, f.v)
		if f.v != nil {
			checkLimit(probs, at, f.name, *f.v, sanityLimits[f.name])
		}
	}
	for _, f := range [...]struct {
		name string
		v    *int64
	}{{"completed", m.Completed}, {"output_tokens", m.OutputTokens}} {
		if f.v != nil && *f.v < 0 {
			probs.Add(at+"."+f.name, "problem.negative", map[string]any{"Value": *f.v})
		}
		if f.v != nil {
			checkLimit(probs, at, f.name, float64(*f.v), sanityLimits[f.name])
		}
	}
}

// checkTelemetry checks what a cell's GPU boards measured (at is its
// path): finite, non-negative numbers within reason, and a throttle verdict
// of those the pages know. An export read back carries them as written.
func checkTelemetry(probs *problem.List, at string, t *run.Telemetry) {
	for _, f := range [...]struct {
		name string
		v    *float64
	}{{"power_w", t.PowerW}, {"power_max_w", t.PowerMaxW}, {"power_limit_w", t.PowerLimitW},
		{"energy_j", t.EnergyJ}, {"gpu_util_pct", t.GPUUtilPct}, {"temp_max_c", t.TempMaxC},
		{"vram_used_mb", t.VRAMUsedMB}, {"vram_total_mb", t.VRAMTotalMB}} {
		checkNumber(probs, at, f.name, f.v)
		if f.v != nil {
			checkLimit(probs, at, f.name, *f.v, sanityLimits[f.name])
		}
	}
	if t.Throttle != nil && !slices.Contains(run.ThrottleVerdicts, *t.Throttle) {
		probs.Add(at+".throttle", "problem.field_enum", map[string]any{"Value": *t.Throttle,
			"Options": strings.Join(run.ThrottleVerdicts, ", ")})
	}
}

// checkLimit refuses a finite number above max (0: no limit), field name
// of what is at path at.
func checkLimit(probs *problem.List, at, name string, v, max float64) {
	if max > 0 && v > max && !math.IsInf(v, 0) {
		probs.Add(at+"."+name, "problem.beyond_limit", map[string]any{
			"Value": strconv.FormatFloat(v, 'g', 4, 64), "Max": strconv.FormatFloat(max, 'g', -1, 64)})
	}
}

// checkNumber refuses a number that is not finite or is negative, field
// name of what is at path at.
func checkNumber(probs *problem.List, at, name string, v *float64) {
	switch {
	case v == nil:
	case math.IsNaN(*v) || math.IsInf(*v, 0):
		probs.Add(at+"."+name, "problem.nonfinite", map[string]any{"Value": fmt.Sprint(*v)})
	case *v < 0:
		probs.Add(at+"."+name, "problem.negative", map[string]any{"Value": *v})
	}
}

// checkStrings refuses text fields PostgreSQL cannot store (NUL, invalid
// UTF-8) or that would swamp a page.
func checkStrings(probs *problem.List, p *run.Parsed) {
	fields := map[string]string{
		"model.id": p.Model.ID, "model.served_name": p.Model.ServedName, "engine.name": p.Engine.Name,
		"engine.version": p.Engine.Version, "hardware.gpu_name": p.Hardware.GPUName, "submitter": p.Submitter,
		"hardware.cpu_name": p.Hardware.CPUName, "hardware.os": p.Hardware.OS, "tool.version": p.Tool.Version,
	}
	for name, v := range fields {
		switch {
		case !utf8.ValidString(v) || strings.ContainsRune(v, 0):
			probs.Add(name, "problem.field_nul", nil)
		case len(v) > 1000:
			probs.Add(name, "problem.field_long", map[string]any{"Max": 1000})
		}
	}
	for _, m := range p.Decode {
		if strings.ContainsRune(m.FailureReason, 0) {
			probs.Add(m.Path+".failure_reason", "problem.field_nul", nil)
		}
	}
}
