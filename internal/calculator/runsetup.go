package calculator

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Facts a run may lack for its cells to have a bound: the codes of
// RunSetup.Missing.
const (
	MissingGPU       = "gpu"
	MissingModel     = "model"
	MissingPrecision = "precision"
)

// RunSetup is the deployment a run's facts describe, as the calculator
// reads them: the GPU and model rows, the weight, head and KV formats and
// the speculation the launch command declares. It is the one place that
// decides the bound of a run's cell (Bound, Optimistic), so the report
// page, the run JSON and every export agree.
type RunSetup struct {
	GPU   GPU
	Count int
	Model Model
	// Weights and Head are the formats the quantization names; Head is the
	// embedding and lm_head, which quantized exports keep wider.
	Weights, Head Precision
	// KV is the cache format the launch command declares, "bf16" when it
	// declares none (the engines' default).
	KV         string
	KVDeclared bool
	// SpecTokens is the draft tokens per step the launch command declares;
	// SpecDeclared says whether it has a launch command to read at all.
	SpecTokens   int
	SpecDeclared bool
	// Missing lists the facts the calculator could not resolve (Missing*),
	// in that order; the cells have a bound only when it is empty.
	Missing []string
	// params is Model.Arch.Count(), counted once by ForRun: every cell's
	// bounds need it, and counting walks every layer.
	params  Params
	counted bool
}

// counts is the model's parameter counts.
func (s RunSetup) counts() Params {
	if s.counted {
		return s.params
	}
	return s.Model.Arch.Count()
}

// Known reports whether every fact a bound needs is resolved.
func (s RunSetup) Known() bool { return len(s.Missing) == 0 }

// ForRun reads a run's facts. A run the tables cannot place still gets a
// RunSetup, whose Missing says what is lacking.
func ForRun(r *run.Run) RunSetup {
	s := RunSetup{Count: max(r.Hardware.GPUCount, 1), KV: "bf16"}
	t, err := Data()
	if err != nil {
		return RunSetup{Missing: []string{MissingGPU, MissingModel, MissingPrecision}}
	}
	var ok bool
	if s.GPU, ok = t.GPUFor(r.Hardware); !ok || r.Hardware.Type == run.CPUOnly {
		s.GPU, s.Missing = GPU{}, append(s.Missing, MissingGPU)
	}
	if s.Model, ok = t.ModelByID(r.Model.ID); !ok {
		if s.Model, ok = t.ModelByID(r.Model.ServedName); !ok {
			s.Missing = append(s.Missing, MissingModel)
		}
	}
	if s.Weights, s.Head, ok = PrecisionFor(r.Engine.Quantization, r.Model.ID); !ok {
		s.Missing = append(s.Missing, MissingPrecision)
	}
	cmd := r.Engine.LaunchCommand
	if kv, ok := kvFromCommand(cmd); ok {
		s.KV, s.KVDeclared = kv, true
	}
	s.SpecTokens, s.SpecDeclared = specFromCommand(cmd), strings.TrimSpace(cmd) != ""
	s.params, s.counted = s.Model.Arch.Count(), true
	return s
}

// weightMarkers map a word in the quantization or the model id to the
// weight format and the format its lm_head usually keeps, most specific
// first: llama.cpp's K-quants keep the output matrix at Q6_K, GPU exports
// (FP8, AWQ, GPTQ) at BF16.
var weightMarkers = []struct{ marker, weights, head string }{
	{"q4_k", "q4_k_m", "q6_k"}, {"q6_k", "q6_k", "q6_k"}, {"q8_0", "q8_0", "q8_0"},
	{"mxfp4", "mxfp4", "bf16"}, {"fp8", "fp8", "bf16"}, {"awq", "int4", "bf16"},
	{"gptq", "int4", "bf16"}, {"int4", "int4", "bf16"}, {"w4a16", "int4", "bf16"},
	{"4bit", "int4", "bf16"}, {"int8", "int8", "bf16"}, {"w8a8", "int8", "bf16"},
	{"bf16", "bf16", "bf16"}, {"fp16", "fp16", "fp16"}, {"f16", "fp16", "fp16"},
}

// PrecisionFor is the weight and head formats a run's quantization names,
// or failing that its model id ("…-FP8-dynamic", "…-AWQ"); ok is false
// when neither names one the calculator knows.
func PrecisionFor(quantization, modelID string) (weights, head Precision, ok bool) {
	for _, s := range []string{quantization, modelID} {
		s = strings.ToLower(s)
		for _, m := range weightMarkers {
			if strings.Contains(s, m.marker) {
				weights, _ = PrecisionOf(m.weights)
				head, _ = PrecisionOf(m.head)
				return weights, head, true
			}
		}
	}
	return Precision{}, Precision{}, false
}

// The launch-command expressions, each with the literals every match of
// it begins with (or, for specFlag, contains). The expressions have no
// common prefix, so Go's matcher tries each alternative at every position
// of a command hundreds of characters long: 2.6 % of a report miss. They
// run from the first place one of their literals appears, or not at all.
var (
	kvDtype      = regexp.MustCompile(`(?:--kv-cache-dtype|--cache-type-k|-ctk)[ =]+"?([a-z0-9_]+)`)
	kvDtypeStart = []string{"--kv-cache-dtype", "--cache-type-k", "-ctk"}
	specN        = regexp.MustCompile(`(?:num_speculative_tokens"?\s*:\s*|--speculative-num-draft-tokens[ =]+|--draft-max[ =]+|--draft[ =]+)(\d+)`)
	specNStart   = []string{"num_speculative_tokens", "--speculative-num-draft-tokens", "--draft"}
	specFlag     = regexp.MustCompile(`--speculative|--model-draft|\s-md\s|--draft|--spec-`)
	specFlagHas  = []string{"--spec", "--model-draft", "-md", "--draft"}
)

// submatchFrom is re.FindStringSubmatch(s) when every match of re begins
// with one of starts: the search begins where the first of them appears,
// since no match can begin before it.
func submatchFrom(re *regexp.Regexp, s string, starts []string) []string {
	first := -1
	for _, lit := range starts {
		if i := strings.Index(s, lit); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	return re.FindStringSubmatch(s[first:])
}

// kvFromCommand is the KV-cache format a launch command sets (vLLM's and
// SGLang's --kv-cache-dtype, llama.cpp's --cache-type-k).
func kvFromCommand(cmd string) (string, bool) {
	m := submatchFrom(kvDtype, strings.ToLower(cmd), kvDtypeStart)
	if m == nil {
		return "", false
	}
	switch v := m[1]; {
	case strings.HasPrefix(v, "fp8"):
		return "fp8", true
	case strings.HasPrefix(v, "int4"), strings.HasPrefix(v, "q4"):
		return "int4", true
	case strings.HasPrefix(v, "int8"), strings.HasPrefix(v, "q8"):
		return "int8", true
	case v == "bf16", v == "fp16", v == "f16":
		return strings.Replace(v, "f16", "fp16", 1), true
	}
	return "", false
}

// undeclaredDrafts is the draft tokens a speculation flag without a count
// is taken to mean: llama.cpp's default --draft-max.
const undeclaredDrafts = 16

// specFromCommand is the draft tokens per step a launch command asks for,
// 0 when it asks for no speculative decoding.
func specFromCommand(cmd string) int {
	cmd = strings.ToLower(cmd)
	if m := submatchFrom(specN, cmd, specNStart); m != nil {
		n, _ := strconv.Atoi(m[1])
		return min(n, undeclaredDrafts)
	}
	if slices.ContainsFunc(specFlagHas, func(lit string) bool { return strings.Contains(cmd, lit) }) &&
		specFlag.MatchString(" "+cmd+" ") {
		return undeclaredDrafts
	}
	return 0
}

// Input is the calculation for one of the run's cells: the declared
// formats, no speculation (its gain depends on an acceptance no run
// records, so efficiency is measured against the plain bound).
func (s RunSetup) Input(ctx, conc int) Input {
	return Input{GPU: s.GPU, Count: s.Count, Arch: s.Model.Arch, Weights: s.Weights, Head: s.Head,
		KV: s.KV, Context: ctx, Concurrency: conc}
}

// Bound is the total tok/s a cell at ctx × conc cannot exceed with the
// run's declared setup and no speculation; 0 when a fact is missing.
func (s RunSetup) Bound(ctx, conc int) float64 {
	if !s.Known() {
		return 0
	}
	return boundOf(s.Input(ctx, conc), s.counts()).TotalTPS
}

// The optimistic bound's allowances, each generous so that no real run
// is flagged: an undeclared launch command may hide speculation of this
// many drafts; a run of unknown format may use weights this small (Q2_K);
// on-chip cache never serves more than this share of a step's bytes.
const (
	undeclaredSpecTokens = 4
	smallestWeightBytes  = 2.5625 / 8
	maxCacheShare        = 0.75
	// Tolerance is the margin over the optimistic bound a cell may reach
	// before its run is flagged: timing noise, rounded specifications.
	Tolerance = 1.1
)

// Optimistic is the highest total tok/s a cell at ctx × conc could
// plausibly reach: peak bandwidth only (no compute limit), weights and
// head in the smallest format the run's facts allow, the declared KV
// format or int4, every draft token accepted, and the GPUs' on-chip cache
// serving its size of each step's bytes. 0 when the GPU or model is unknown.
func (s RunSetup) Optimistic(ctx, conc int) float64 {
	if slices.Contains(s.Missing, MissingGPU) || slices.Contains(s.Missing, MissingModel) {
		return 0
	}
	in := s.Input(ctx, conc)
	w := Precision{Code: "smallest", Bytes: smallestWeightBytes, Compute: "fp16"}
	if !slices.Contains(s.Missing, MissingPrecision) {
		w = s.Weights
		if s.Head.Bytes < w.Bytes {
			w = s.Head
		}
	}
	in.Weights, in.Head = w, w
	if !s.KVDeclared {
		in.KV = "int4"
	}
	in.SpecTokens, in.Acceptance = s.SpecTokens, 1
	if !s.SpecDeclared {
		in.SpecTokens = undeclaredSpecTokens
	}
	b := boundOf(in, s.counts())
	bytes := b.BytesPerStepGB * 1e9
	cached := min(s.GPU.CacheMB*1e6*float64(s.Count), maxCacheShare*bytes)
	return b.MemoryTPS * bytes / (bytes - cached)
}

// AboveBound reports whether a measured total tok/s at ctx × conc is above
// the optimistic bound by more than Tolerance.
func (s RunSetup) AboveBound(measured float64, ctx, conc int) bool {
	o := s.Optimistic(ctx, conc)
	return o > 0 && measured > o*Tolerance
}

// FlagAboveBound is the run flag of a run with a cell above the
// optimistic bound: shown, never refused, kept out of default rankings.
const FlagAboveBound = run.FlagAboveBound

// CellContext is the context a cell's bound is computed at: the one the
// tool actually sent when it trimmed the requested one.
func CellContext(c *run.DecodeCell) int {
	if c.MeasuredContext > 0 {
		return c.MeasuredContext
	}
	return c.Context
}

// Flags are the run's plausibility flags: FlagAboveBound when any valid
// or queued cell is above the optimistic bound, FlagPowerImplausible when
// any cell or prefill row drew more power than its boards can.
func Flags(r *run.Run) []string { return ForRun(r).Flags(r) }

// Flags is the package's Flags for a caller that has read the run's
// setup already (the report page), so it is not read twice.
func (s RunSetup) Flags(r *run.Run) []string {
	var flags []string
	for i := range r.Decode {
		c := &r.Decode[i]
		if (c.Status == run.Valid || c.Status == run.Queued) && c.TotalTPS != nil &&
			s.AboveBound(*c.TotalTPS, CellContext(c), c.Concurrency) {
			flags = append(flags, FlagAboveBound)
			break
		}
	}
	if s.RunPowerImplausible(r) {
		flags = append(flags, run.FlagPowerImplausible)
	}
	return flags
}

// PowerTolerance is how far above its enforced power limit a cell's
// average power may read before it is implausible: boards overshoot their
// limit briefly, and the tools sample unevenly.
const PowerTolerance = 1.10

// RunPowerImplausible reports whether any cell or prefill row of r is
// PowerImplausible.
func (s RunSetup) RunPowerImplausible(r *run.Run) bool {
	for i := range r.Decode {
		if s.PowerImplausible(r, &r.Decode[i].Telemetry) {
			return true
		}
	}
	for i := range r.Prefill {
		if s.PowerImplausible(r, &r.Prefill[i].Telemetry) {
			return true
		}
	}
	return false
}

// PowerImplausible reports whether t's average power is above its power
// limit by more than PowerTolerance, or above the most the run's boards
// can draw: their highest settable limit where the file gives it, else the
// GPU table's board power × the GPU count. Never refused, only flagged.
func (s RunSetup) PowerImplausible(r *run.Run, t *run.Telemetry) bool {
	if t.PowerW == nil {
		return false
	}
	w := *t.PowerW
	limit := t.PowerLimitW
	if limit == nil && r.Telemetry != nil {
		limit = r.Telemetry.PowerLimitW
	}
	if limit != nil && *limit > 0 && w > *limit*PowerTolerance {
		return true
	}
	most := 0.0
	if r.Telemetry != nil && r.Telemetry.PowerLimitMaxW != nil {
		most = *r.Telemetry.PowerLimitMaxW
	} else if s.GPU.BoardPowerW > 0 {
		most = s.GPU.BoardPowerW * float64(s.Count)
	}
	return most > 0 && w > most*PowerTolerance
}

// CellBound is one cell measured against its bound.
type CellBound struct {
	// BoundTPS is the cell's bound (Bound), 0 when a fact is missing.
	BoundTPS float64
	// Efficiency is measured ÷ bound, for valid and queued cells with a
	// total rate and a bound; ok says whether it is set.
	Efficiency float64
	OK         bool
}

// Cell is cell c against its bound: the one function the report page, the
// run JSON and the exports ask.
func (s RunSetup) Cell(c *run.DecodeCell) CellBound {
	b := CellBound{BoundTPS: s.Bound(CellContext(c), c.Concurrency)}
	if b.BoundTPS > 0 && c.TotalTPS != nil && (c.Status == run.Valid || c.Status == run.Queued) {
		b.Efficiency, b.OK = *c.TotalTPS/b.BoundTPS, true
	}
	return b
}

// MedianEfficiency is the median of the run's cell efficiencies and how
// many cells it rests on; n is 0 when no cell has one.
func (s RunSetup) MedianEfficiency(r *run.Run) (median float64, n int) {
	return MedianOf(s.Cells(r))
}

// Cells is Cell of each of the run's decode cells, in their order: for
// a page that shows each cell's bound in several places.
func (s RunSetup) Cells(r *run.Run) []CellBound {
	out := make([]CellBound, len(r.Decode))
	for i := range r.Decode {
		out[i] = s.Cell(&r.Decode[i])
	}
	return out
}

// MedianOf is MedianEfficiency of the cells' bounds (Cells).
func MedianOf(cells []CellBound) (median float64, n int) {
	var effs []float64
	for _, b := range cells {
		if b.OK {
			effs = append(effs, b.Efficiency)
		}
	}
	if len(effs) == 0 {
		return 0, 0
	}
	slices.Sort(effs)
	m := len(effs) / 2
	if len(effs)%2 == 1 {
		return effs[m], len(effs)
	}
	return (effs[m-1] + effs[m]) / 2, len(effs)
}

// boundRule names the flag rule: change it with the rule (allowances,
// Tolerance), so stored flags are derived again.
const boundRule = "optimistic-1+power-1"

// BoundVersion names the tables and rule flags are derived with: a hash of
// the embedded data files and boundRule. A stored run with another one is
// stale (ingest.RederiveStale).
var BoundVersion = sync.OnceValue(func() string {
	h := sha256.New()
	h.Write([]byte(boundRule))
	for _, name := range []string{"data/gpus.json", "data/models.json"} {
		b, _ := dataFiles.ReadFile(name)
		h.Write(b)
	}
	return boundRule + ":" + hex.EncodeToString(h.Sum(nil))[:12]
})
