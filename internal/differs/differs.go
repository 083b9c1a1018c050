// Package differs says what differs between a run and another run of the
// same hardware, model and quantization: engine and version, the launch
// command flag by flag, speculative decoding, the KV-cache format,
// parallelism, the machine around the GPU, and the measured gap between
// them at a cell. It claims no cause; the differences known to move
// decode speed are listed first.
//
// It is pure: the store finds the other run (Store.FastestOthers), this
// package compares two runs it is given.
package differs

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/flags"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/share"
)

// Field names, as the rows of a comparison carry them; the pages word
// them through the locale ids "differs.field.<name>".
const (
	FieldSpeculative = "speculative"
	FieldKVCache     = "kv_cache"
	FieldEngine      = "engine"
	FieldTensor      = "tensor_parallel"
	FieldPipeline    = "pipeline_parallel"
	FieldGPUCount    = "gpu_count"
	FieldFlag        = "flag"
	FieldDriver      = "driver"
	FieldBackend     = "backend"
	FieldCPU         = "cpu"
	FieldRAM         = "ram"
	FieldOS          = "os"
)

// Difference is one fact on which two runs differ. An empty value means
// the run does not state it (for a flag: its command does not give it).
type Difference struct {
	// Field names the fact (Field*); Flag is the flag's canonical name
	// when Field is FieldFlag.
	Field, Flag string
	This, Other string
	// Speed is set for facts known to move decode speed.
	Speed bool
}

// facts are what the fields read of one run, worked out once.
type facts struct {
	r     *run.Run
	setup calculator.RunSetup
	cmd   flags.Command
}

func factsOf(r *run.Run) *facts {
	return &facts{r: r, setup: calculator.ForRun(r), cmd: flags.Parse(r.Engine.Name, r.Engine.LaunchCommand)}
}

// field is one fact a comparison reads of both runs.
type field struct {
	name string
	of   func(*facts) string
}

// speedFields are the facts known to move decode speed, most first; they
// head every comparison. A fact the run model gains (a power limit, the
// throttle verdict) is one line here.
var speedFields = []field{
	{FieldSpeculative, func(f *facts) string {
		if !f.setup.SpecDeclared {
			return ""
		}
		return strconv.Itoa(f.setup.SpecTokens)
	}},
	{FieldKVCache, func(f *facts) string {
		if !f.setup.KVDeclared && f.r.Engine.LaunchCommand == "" {
			return ""
		}
		return f.setup.KV
	}},
	{FieldEngine, func(f *facts) string { return share.EngineName(f.r) }},
	{FieldTensor, func(f *facts) string { tp, _ := f.cmd.Parallelism(); return positive(tp) }},
	{FieldPipeline, func(f *facts) string { _, pp := f.cmd.Parallelism(); return positive(pp) }},
	{FieldGPUCount, func(f *facts) string { return positive(f.r.Hardware.GPUCount) }},
}

// machineFields are the other facts, after the launch flags. The PCIe
// link joins them in one line once runs carry it.
var machineFields = []field{
	{FieldDriver, func(f *facts) string { return f.r.Hardware.Driver }},
	{FieldBackend, func(f *facts) string { return f.r.Engine.Backend }},
	{FieldCPU, func(f *facts) string { return f.r.Hardware.CPUName }},
	{FieldRAM, func(f *facts) string {
		if f.r.Hardware.RAMGB <= 0 {
			return ""
		}
		return strconv.FormatFloat(f.r.Hardware.RAMGB, 'f', -1, 64)
	}},
	{FieldOS, func(f *facts) string { return f.r.Hardware.OS }},
}

func positive(n int) string {
	if n <= 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// Between lists what differs between run this and run other: the facts
// known to move decode speed, then the launch command's flags (those
// known to move speed first, the KV-cache format's first of all; a flag
// only one command gives shows with the other side empty), then the
// machine. Flags are compared under each run's own engine's rules.
func Between(this, other *run.Run) []Difference {
	a, b := factsOf(this), factsOf(other)
	var out []Difference
	out = appendFields(out, speedFields, a, b, true)
	out = append(out, flagDifferences(a.cmd, b.cmd)...)
	return appendFields(out, machineFields, a, b, false)
}

func appendFields(out []Difference, fs []field, a, b *facts, speed bool) []Difference {
	for _, f := range fs {
		if x, y := f.of(a), f.of(b); x != y {
			out = append(out, Difference{Field: f.name, This: x, Other: y, Speed: speed})
		}
	}
	return out
}

// flagDifferences are the flags whose values differ, by SpeedRank, then
// in the order this command gives them, then the other's.
func flagDifferences(a, b flags.Command) []Difference {
	names := slices.Clone(a.Names)
	for _, n := range b.Names {
		if _, ok := a.Values[n]; !ok {
			names = append(names, n)
		}
	}
	var out []Difference
	for _, n := range names {
		x, y := a.Values[n], b.Values[n]
		if x != y {
			out = append(out, Difference{Field: FieldFlag, Flag: n, This: x, Other: y,
				Speed: flags.SpeedRank(n) < flags.SpeedRank("")})
		}
	}
	// Stable: flags of one rank keep the commands' order.
	slices.SortStableFunc(out, func(p, q Difference) int { return cmp.Compare(flags.SpeedRank(p.Flag), flags.SpeedRank(q.Flag)) })
	return out
}

// setupFields are the facts whose change beside the engine version makes
// a regression's cause uncertain: the launch flags and the driver. A fact
// the run model gains (the power limit) is one more name here.
var setupFields = []string{FieldFlag, FieldDriver}

// SetupChanges is what changed between an older version's run and a
// newer one's besides the engine: This is the newer run's value, Other
// the older's. Empty when only the engine changed.
func SetupChanges(older, newer *run.Run) []Difference {
	var out []Difference
	for _, d := range Between(newer, older) {
		if slices.Contains(setupFields, d.Field) {
			out = append(out, d)
		}
	}
	return out
}
