package demo

import (
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/formats"
	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// Synthetic is one generated demo run, ready for store.InsertRun.
type Synthetic struct {
	// Run is derived (status.Derive decided every cell) and has Demo set.
	Run *run.Run
	// Key is the dedupe key, "demo:<seed>:<index>": loading the same seed
	// twice stores nothing new.
	Key string
	// Source is the run's speedmatrix-run/1 document, stored as its source
	// so it can be derived again like any upload when the rules change.
	Source []byte
}

// Tool is what demo runs name as the tool that measured them.
var Tool = run.Tool{Name: "llm-inference-bench (simulated)", Version: "0.8.0"}

// SourceFormat is the source format of demo runs.
const SourceFormat = "speedmatrix-demo"

// epoch is when the first demo run was "uploaded"; later ones follow a few
// minutes apart, so pages sorted by time interleave them deterministically.
var epoch = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// Generate yields the first n synthetic runs of seed, in order. The same
// seed and index always give the same run.
func Generate(seed int64, n int) iter.Seq[Synthetic] {
	return func(yield func(Synthetic) bool) {
		for i := range n {
			if !yield(One(seed, i)) {
				return
			}
		}
	}
}

// One returns run i of seed. Each run has a random stream of its own, so
// workers can generate runs in any order and get the same ones.
func One(seed int64, i int) Synthetic {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(i)))
	s := pickSetup(rng, i)
	p := s.parsed(rng)
	p.DedupeKey = fmt.Sprintf("demo:%d:%d", seed, i)
	// The same validation and derivation as every upload.
	r, err := ingest.Derive(p)
	if err != nil {
		panic(fmt.Sprintf("demo run %d of seed %d does not validate: %v", i, seed, err))
	}
	r.UploadedAt = epoch.Add(time.Duration(i)*3*time.Minute + time.Duration(rng.IntN(170))*time.Second)
	r.Demo = true
	src, err := json.Marshal(export.OfDerived(r, ""))
	if err != nil {
		panic(err) // plain structs and numbers always marshal
	}
	r.Source = run.Source{SHA256: formats.SHA256(src), Filename: fmt.Sprintf("demo-%d-%d.json", seed, i),
		ContentType: "application/json", Size: int64(len(src))}
	return Synthetic{Run: r, Key: formats.DedupeKey(p, src), Source: src}
}

// parsed builds the document the simulated tool would have written: the
// measured cells and prefill rows, with every cell over the KV budget
// skipped as llm-inference-bench skips it. Statuses are left to
// status.Derive.
func (s *setup) parsed(rng *rand.Rand) *run.Parsed {
	contexts := []int{0}
	for _, c := range []int{4096, 8192, 16384, 32768, 65536, 131072} {
		if rng.Float64() < 0.7 {
			contexts = append(contexts, c)
		}
	}
	concs := []int{1, 2, 4, 8}
	for _, c := range []int{16, 32, 64} {
		if rng.Float64() < 0.8 {
			concs = append(concs, c)
		} else {
			break
		}
	}
	p := &run.Parsed{
		Format: SourceFormat, Tool: Tool, Provenance: run.Measured,
		Submitter: submitters[rng.IntN(len(submitters))],
		Hardware:  s.hardware(rng), Engine: s.engine(rng), Model: run.Model{ID: s.modelID(), ServedName: s.m.Short},
		Settings: run.Settings{DecodeMode: run.DecodeDuration, PrefillMode: run.PrefillIntegrated,
			SecondsPerMeasurement: 30, MaxOutputTokens: s.maxOut, KVBudgetTokens: s.budget,
			MaxRunningRequests: s.maxRunning, Contexts: contexts, Concurrencies: concs},
		MeasuredAt: epoch.Add(time.Duration(rng.IntN(365*24)) * time.Hour).Format("2006-01-02T15:04:05"),
	}
	if limit, ok := boardPowerW[s.g.ID]; ok && s.g.Type == run.DiscreteGPU {
		p.Telemetry = &run.RunTelemetry{Telemetry: run.Telemetry{PowerLimitW: run.F(limit * float64(s.count))}}
	}
	failAt := -1
	if rng.Float64() < 0.15 {
		failAt = rng.IntN(len(contexts) * len(concs))
	}
	for ci, ctx := range contexts {
		if ctx >= 8192 {
			p.Settings.PrefillContexts = append(p.Settings.PrefillContexts, ctx)
			row := s.prefill(rng, ctx)
			row.Telemetry = s.telemetry(ctx, 0, 1)
			p.Prefill = append(p.Prefill, row)
		}
		for ki, conc := range concs {
			if status.ExceedsKV(ctx, conc, &p.Settings) {
				continue // the tool's own skip: Derive calls it over capacity
			}
			m := s.measure(rng, ctx, conc)
			m.Telemetry = s.telemetry(ctx, conc, 0)
			if ci*len(concs)+ki == failAt {
				m = run.Measurement{Context: ctx, Concurrency: conc,
					Signals: run.Signals{Failed: true, FailureReason: failures[rng.IntN(len(failures))]}}
			}
			p.Decode = append(p.Decode, m)
		}
	}
	return p
}

// failures are the messages of failed demo cells, as servers word them.
var failures = []string{
	"HTTP 500: CUDA error: an illegal memory access was encountered",
	"request timed out after 600 s",
	"HTTP 503: server disconnected",
	"repetition loop detected in output",
}

func (s *setup) hardware(rng *rand.Rand) run.Hardware {
	name := s.g.Name
	// Uploads spell GPUs as nvidia-smi does about as often as people do:
	// the browse area normalises both.
	if s.g.Type == run.DiscreteGPU && strings.HasPrefix(name, "RTX ") && !strings.Contains(name, "A6000") &&
		!strings.Contains(name, "PRO") && rng.Float64() < 0.25 {
		name = "NVIDIA GeForce " + name
	}
	h := run.Hardware{Type: s.g.Type, GPUName: name, GPUCount: s.count, VRAMGB: s.g.VRAMGB,
		CPUName: s.g.CPU, OS: s.g.OS, RAMGB: []float64{32, 64, 128, 256}[rng.IntN(4)]}
	if s.g.Type == run.UnifiedMemory {
		h.RAMGB = s.g.VRAMGB
	}
	return h
}

func (s *setup) engine(rng *rand.Rand) run.Engine {
	vs := engineVersions[s.eng]
	e := run.Engine{Name: s.eng, Version: vs[rng.IntN(len(vs))], Quantization: s.q.Name}
	if s.version != "" {
		e.Version = s.version
	}
	switch s.eng {
	case "llama.cpp":
		e.Backend = "cuda"
		switch {
		case strings.HasPrefix(s.g.Name, "Apple"):
			e.Backend = "metal"
		case strings.Contains(s.g.Name, "Radeon"), strings.Contains(s.g.Name, "Ryzen"):
			e.Backend = "vulkan"
		}
		e.LaunchCommand = fmt.Sprintf("llama-server -m %s.%s.gguf -ngl 999 --ctx-size %d --parallel %d -fa on",
			s.m.Short, s.q.Name, s.budget, s.slots)
	default:
		e.Backend = "cuda"
		if strings.Contains(s.g.Name, "Instinct") || strings.Contains(s.g.Name, "Radeon") {
			e.Backend = "rocm"
		}
		e.LaunchCommand = fmt.Sprintf("%s serve %s --tensor-parallel-size %d", s.eng, s.modelID(), s.count)
		if s.eng == "sglang" {
			e.LaunchCommand = fmt.Sprintf("python -m sglang.launch_server --model-path %s --tp %d --max-running-requests %d",
				s.modelID(), s.count, s.maxRunning)
		}
		if s.kvFactor < 1 {
			e.LaunchCommand += " --kv-cache-dtype fp8"
		}
	}
	return e
}

// modelID is the quantised variant's id: "Qwen/Qwen3-8B-FP8-dynamic",
// "unsloth/Qwen3-8B-GGUF".
func (s *setup) modelID() string {
	if s.q.Suffix == "" {
		return s.m.ID
	}
	if s.q.Suffix == "-GGUF" {
		return "unsloth/" + s.m.Short + "-GGUF"
	}
	return s.m.ID + s.q.Suffix
}

// Counts tallies what a set of runs covers, for tests and the command's
// summary.
func Counts(runs []*run.Run) (gpuNames, engines, models []string) {
	for _, r := range runs {
		gpuNames = append(gpuNames, strings.TrimPrefix(r.Hardware.GPUName, "NVIDIA GeForce "))
		engines = append(engines, r.Engine.Name)
		models = append(models, strings.TrimSuffix(r.Model.ServedName, ""))
	}
	for _, s := range []*[]string{&gpuNames, &engines, &models} {
		slices.Sort(*s)
		*s = slices.Compact(*s)
	}
	return gpuNames, engines, models
}
