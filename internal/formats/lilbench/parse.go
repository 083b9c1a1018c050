// Package lilbench reads lil-bench's upload document, lil-bench-result/1: a
// wrapper around an llm-inference-bench file (results.bench) with the
// machine's inventory, the server's argv and the plan of cells it chose.
// What the wrapper knows of hardware, engine and model wins over the bench
// file; the grid it declares is its plan's.
package lilbench

import (
	"math"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/llmbench"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Schema is the value of the document's "schema" key.
const Schema = "lil-bench-result/1"

// Format names this format on runs.
const Format = Schema

// Parse reads a lil-bench-result/1 document.
func Parse(data []byte) (*run.Parsed, error) {
	var doc document
	if err := jsondoc.Decode(data, &doc); err != nil {
		return nil, err
	}
	return parse(&doc)
}

// ParseChecked reads a lil-bench-result/1 document the codec has checked
// already.
func ParseChecked(text jsondoc.Checked) (*run.Parsed, error) {
	var doc document
	if err := text.Decode(&doc); err != nil {
		return nil, err
	}
	return parse(&doc)
}

func parse(doc *document) (*run.Parsed, error) {
	if doc.Schema != Schema {
		return nil, problem.New(problem.Invalid, "$.schema", "problem.lilbench.schema", map[string]any{"Schema": doc.Schema})
	}
	bench := doc.Results.Bench.Bytes()
	if len(bench) == 0 || string(bench) == "{}" || string(bench) == "null" {
		return nil, problem.New(problem.Invalid, "$.results.bench", "problem.lilbench.no_bench", map[string]any{"Status": doc.Status})
	}
	p, err := llmbench.ParseChecked(doc.Results.Bench, "$.results.bench")
	if err != nil {
		return nil, err
	}
	p.Format = Format
	p.Tool = run.Tool{Name: "lil-bench", Version: doc.Client.LilBench}
	if doc.RunID != "" {
		p.DedupeKey = "lil-bench:" + doc.RunID
	}
	p.Profile, p.Integrity = doc.Profile, doc.Integrity.Status
	if u := doc.Client.Uploader; u != nil {
		p.Submitter = *u
	}
	if doc.Finished != "" {
		p.MeasuredAt = doc.Finished
	}
	applyHardware(&p.Hardware, &doc.Hardware)
	applyServer(p, &doc.Server, &doc.Image)
	applyTelemetry(p, doc)
	applyPlan(p, doc.Plan)
	return p, nil
}

func applyHardware(hw *run.Hardware, h *hardware) {
	if len(h.GPUs) > 0 {
		g := h.GPUs[0]
		*hw = run.Hardware{Type: run.DiscreteGPU, GPUName: g.Name, GPUCount: len(h.GPUs)}
		if g.UnifiedMemory {
			hw.Type = run.UnifiedMemory
		}
		if g.MemoryTotalMiB != nil {
			hw.VRAMGB = math.Round(*g.MemoryTotalMiB / 1024)
		}
	}
	if h.NVMLSystem != nil {
		hw.Driver = h.NVMLSystem.DriverVersion
	}
	if name := h.CPU.LSCPU["Model name"]; name != "" {
		hw.CPUName = name
		cores, _ := strconv.Atoi(h.CPU.LSCPU["Core(s) per socket"])
		sockets, err := strconv.Atoi(h.CPU.LSCPU["Socket(s)"])
		if err != nil {
			sockets = 1
		}
		hw.CPUCores = cores * sockets
	}
	if m := h.Memory.MemTotalMiB; m != nil {
		hw.RAMGB = math.Round(*m / 1024)
	}
	if h.Host.Kernel != "" {
		// The host's distribution is not recorded (container_os is the
		// image's), so the kernel is what we can say.
		hw.OS = "Linux " + h.Host.Kernel
	}
}

func applyServer(p *run.Parsed, s *server, img *image) {
	if s.Model != "" {
		p.Model.ID = s.Model
	} else if s.API.Root != "" {
		p.Model.ID = s.API.Root
	}
	if s.API.ModelID != "" {
		p.Model.ServedName = s.API.ModelID
	}
	if v := s.API.Version; v != nil && *v != "" {
		p.Engine.Version = *v
	}
	if q, ok := s.Options["quantization"].(string); ok {
		p.Engine.Quantization = q
	}
	if len(s.Argv) > 0 {
		p.Engine.LaunchCommand = shellJoin(s.Argv)
	}
	p.Engine.Build = img.Alias
	if p.Settings.KVBudgetTokens == 0 && s.Limits.KVTokens != nil {
		p.Settings.KVBudgetTokens = int64(*s.Limits.KVTokens)
	}
}

// shellJoin renders argv as a command a reader can paste into a shell.
func shellJoin(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a != "" && !strings.ContainsAny(a, " \t\n\"'\\$`{}[]*?;&|<>()!#~") {
			parts[i] = a
			continue
		}
		parts[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(parts, " ")
}
