// Package genaiperf reads the summary exports of NVIDIA GenAI-Perf
// (profile_export_genai_perf.json) and of its successor AIPerf
// (profile_export_aiperf.json, both the top-level shape and the early
// records shape). Each file is one measurement at one load: one cell.
// docs/formats.md says how each key becomes a number.
package genaiperf

import (
	"maps"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names GenAI-Perf exports on runs and in messages.
const Format = "genai-perf"

// FormatAIPerf names AIPerf exports.
const FormatAIPerf = "aiperf"

// NoteCancelled marks an AIPerf run the user cancelled before it finished:
// the numbers cover the part that ran.
const NoteCancelled = "aiperf_cancelled"

// NoteTTFTIsLatency marks a run without streaming: the first token arrives
// with the whole answer, so the tool's "time to first token" is the
// request's latency.
const NoteTTFTIsLatency = "ttft_is_request_latency"

// Detect reports whether a document's top-level object is a GenAI-Perf or
// AIPerf export: an input_config beside {unit, avg} metric blocks (or
// AIPerf's records), or AIPerf's own keys.
func Detect(top map[string]jsontext.Value) bool {
	if isAIPerf(top) {
		return true
	}
	if top["input_config"] == nil {
		return false
	}
	for _, k := range []string{"output_token_throughput", "request_throughput", "request_latency"} {
		var b struct {
			Unit *string `json:"unit"`
		}
		if jsondoc.Unmarshal(top[k], &b) == nil && b.Unit != nil {
			return true
		}
	}
	return false
}

func isAIPerf(top map[string]jsontext.Value) bool {
	if top["aiperf_version"] != nil {
		return true
	}
	if top["input_config"] == nil {
		return false
	}
	return top["records"] != nil || top["error_summary"] != nil || top["was_cancelled"] != nil || top["schema_version"] != nil
}

// Parse reads one GenAI-Perf or AIPerf export.
func Parse(data []byte) (*run.Parsed, error) {
	data = jsondoc.SanitizeToNull(data)
	var top map[string]jsontext.Value
	if err := jsondoc.Decode(data, &top); err != nil {
		return nil, err
	}
	var h head
	if err := jsondoc.Decode(data, &h); err != nil {
		return nil, err
	}
	p := &parser{c: jsondoc.NewChecker(), blocks: top, base: "$"}
	if h.Records != nil {
		p.blocks, p.base = h.Records, "$.records"
	}
	out := p.parse(&h, isAIPerf(top))
	if err := p.c.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

type parser struct {
	c      *jsondoc.Checker
	blocks map[string]jsontext.Value
	base   string
	ic     inputConfig
	notes  []string // caveats found while reading the cell
}

func (p *parser) parse(h *head, aiperf bool) *run.Parsed {
	// Lenient: a field of another type than expected is skipped.
	_ = jsondoc.Unmarshal(h.InputConfig, &p.ic)
	out := &run.Parsed{Format: Format, Tool: run.Tool{Name: "GenAI-Perf"}, Provenance: run.Measured}
	if aiperf {
		out.Format, out.Tool = FormatAIPerf, run.Tool{Name: "AIPerf", Version: h.AIPerfVersion}
		out.MeasuredAt = h.StartTime
		out.Hardware = gpus(h.Telemetry)
		if h.WasCancelled != nil && *h.WasCancelled {
			out.Notes = append(out.Notes, NoteCancelled)
		}
	} else {
		out.Engine = p.engine()
	}
	// Both tools' inter_token_latency is per request, (latency − TTFT) ÷
	// (output tokens − 1): its median is TPOT, not the median pooled gap.
	out.Notes = append(out.Notes, sweep.NoteTBTIsTPOT)
	out.Model = p.model()
	conc := p.concurrency(out.Tool.Name)
	if conc == 0 {
		return nil
	}
	m, ok := p.cell(conc)
	if !ok {
		return nil
	}
	out.Decode = []run.Measurement{m}
	out.Notes = append(out.Notes, p.notes...)
	return out
}

// streamed reports whether the run streamed its answers; unsaid is taken
// as streamed, both tools' usual mode for LLM profiling.
func (p *parser) streamed() bool {
	if s := p.endpoint().Streaming; s != nil {
		return *s
	}
	return p.ic.Streaming == nil || *p.ic.Streaming
}

func (p *parser) endpoint() endpoint {
	var e endpoint
	_ = jsondoc.Unmarshal(p.ic.Endpoint, &e)
	return e
}

func (p *parser) model() run.Model {
	names := append(append(p.ic.ModelNames, p.endpoint().ModelNames...), p.ic.Model...)
	for _, n := range names {
		if n = strings.TrimSpace(n); n != "" {
			m := run.Model{ServedName: n}
			if strings.Contains(n, "/") {
				m.ID = n
			}
			return m
		}
	}
	return run.Model{}
}

// engine: GenAI-Perf names the server only when it talks to Triton, where
// backend is Triton's backend (tensorrtllm, vllm). Against an OpenAI-style
// server, backend is meaningless and nothing is known.
func (p *parser) engine() run.Engine {
	kind, backend := p.ic.ServiceKind, p.ic.Backend
	if e := p.endpoint(); e.ServiceKind != "" {
		kind, backend = e.ServiceKind, e.Backend
	}
	if kind != "triton" {
		return run.Engine{}
	}
	return run.Engine{Name: "Triton Inference Server", Backend: backend}
}

// gpus reads AIPerf's GPU telemetry (--gpu-telemetry): the first endpoint's
// GPUs.
func gpus(raw jsontext.Value) run.Hardware {
	var t telemetry
	_ = jsondoc.Unmarshal(raw, &t)
	var hw run.Hardware
	hosts := slices.Sorted(maps.Keys(t.Endpoints))
	if len(hosts) == 0 {
		return hw
	}
	for _, g := range t.Endpoints[hosts[0]].GPUs {
		hw.GPUCount++
		if name := strings.TrimSpace(g.Name); hw.GPUName == "" || name < hw.GPUName {
			hw.GPUName = name
		}
	}
	if hw.GPUName == "" {
		return run.Hardware{}
	}
	hw.Type = run.DiscreteGPU
	return hw
}
