package llamabench

import (
	"bytes"
	"path"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// perTest are the keys that describe one test rather than the setup; every
// other key must be the same in every test of a run.
var perTest = []string{"n_prompt", "n_gen", "n_depth", "test_time"}

// perTestPrefixes mark measurements of one test: upstream writes avg_ns,
// stddev_ts, samples_ns …, and forks add their own (avg_ttft_ms, avg_itl_ms),
// which must not read as a second setup.
var perTestPrefixes = []string{"avg_", "stddev_", "samples_"}

func isPerTest(key string) bool {
	if slices.Contains(perTest, key) {
		return true
	}
	return slices.ContainsFunc(perTestPrefixes, func(p string) bool { return strings.HasPrefix(key, p) })
}

// sameSetup refuses a test whose setup (model, layers, threads, flash
// attention, batch sizes, KV types …) differs from the first test's: one
// run is one setup, and llama-bench sweeps any option given several values.
func (p *parser) sameSetup(o *jsondoc.Object) bool {
	a, b := p.first.Fields(), o.Fields()
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if isPerTest(k) || equalJSON(a[k], b[k]) {
			continue
		}
		o.Problem(k, "problem.formats.llamabench_setups", map[string]any{
			"Field": k, "Value": text(b[k]), "First": text(a[k])})
		return false
	}
	return true
}

func equalJSON(a, b jsontext.Value) bool {
	x, y := a.Clone(), b.Clone()
	if x.Compact() != nil || y.Compact() != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(x, y)
}

func text(raw jsontext.Value) string {
	if raw == nil {
		return "(none)"
	}
	var s string
	if jsondoc.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) > 80 {
		return string(raw[:80]) + "…"
	}
	return string(raw)
}

// facts reads the machine, engine and model from the first test.
func facts(o *jsondoc.Object, out *run.Parsed) {
	build := o.String("build_number")
	if build != "" {
		build = "b" + build
	}
	out.Tool.Version = build
	out.MeasuredAt = o.String("test_time")
	out.Engine = run.Engine{Name: "llama.cpp", Version: build, Build: o.String("build_commit"),
		Backend: o.String("backends"), Quantization: quantization(o.String("model_type"))}
	if file := o.String("model_filename"); file != "" {
		out.Model.ServedName = strings.TrimSuffix(path.Base(strings.ReplaceAll(file, `\`, "/")), ".gguf")
	}
	out.Hardware = hardware(o.String("gpu_info"), o.String("cpu_info"), o.String("backends"))
}

// quantization is the file type at the end of llama.cpp's model
// description: "qwen2 7B Q4_K - Medium" → "Q4_K - Medium".
func quantization(desc string) string {
	f := strings.SplitN(desc, " ", 3)
	if len(f) < 3 {
		return ""
	}
	return f[2]
}

// hardware reads gpu_info (comma-joined device descriptions, empty on a
// CPU-only build) and cpu_info; Metal means Apple's unified memory.
func hardware(gpus, cpu, backends string) run.Hardware {
	hw := run.Hardware{CPUName: cpu, Type: run.CPUOnly}
	var names []string
	for _, g := range strings.Split(gpus, ",") {
		if g = strings.TrimSpace(g); g != "" {
			names = append(names, g)
		}
	}
	if len(names) == 0 {
		return hw
	}
	hw.GPUName, hw.GPUCount, hw.Type = names[0], len(names), run.DiscreteGPU
	if strings.Contains(backends, "Metal") {
		hw.Type = run.UnifiedMemory
	}
	return hw
}
