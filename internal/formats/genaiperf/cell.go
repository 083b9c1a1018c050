package genaiperf

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// concurrency is the client's cap: GenAI-Perf's --concurrency (flat, or
// perf_analyzer.stimulus when nested), AIPerf's loadgen.concurrency. A run
// driven by --request-rate has no concurrency and is refused, as is a file
// that does not say (AIPerf writes only the options the user set).
func (p *parser) concurrency(tool string) int {
	conc, rate, path := p.ic.Concurrency, p.ic.RequestRate, "$.input_config.concurrency"
	if pa := p.ic.PerfAnalyzer; pa != nil {
		conc, rate, path = pa.Stimulus["concurrency"], pa.Stimulus["request_rate"], "$.input_config.perf_analyzer.stimulus.concurrency"
	}
	if lg := p.ic.Loadgen; lg != nil {
		conc, rate, path = lg.Concurrency, lg.RequestRate, "$.input_config.loadgen.concurrency"
	}
	hint := strings.ToLower(tool) + " profile --concurrency N (once per N)"
	switch {
	case conc.Set:
		return p.c.Concurrency(path, conc.Ptr())
	case rate.Set:
		sweep.RateDriven(&p.c.List, strings.Replace(path, "concurrency", "request_rate", 1), tool, rate.Ptr(), hint)
	default:
		p.c.Add("$.input_config", "problem.formats.no_concurrency", map[string]any{"Tool": tool, "Hint": hint})
	}
	return 0
}

// get decodes the metric block named by key (see metricNames), with its path.
func (p *parser) get(key string) (*block, string) {
	for _, name := range metricNames[key] {
		raw, ok := p.blocks[name]
		if !ok || string(raw) == "null" {
			continue
		}
		at := p.base + "." + name
		var b block
		if err := jsondoc.Unmarshal(raw, &b); err != nil {
			p.c.Add(at, "problem.type", map[string]any{"Want": "object", "Got": kind(raw)})
			return nil, at
		}
		return &b, at
	}
	return nil, ""
}

func kind(raw jsontext.Value) string {
	switch s := strings.TrimSpace(string(raw)); {
	case strings.HasPrefix(s, "["):
		return "array"
	case strings.HasPrefix(s, `"`):
		return "string"
	default:
		return "number"
	}
}

// ms reads a latency statistic in milliseconds whatever unit the block
// names: GenAI-Perf and AIPerf write ms, durations are in sec, timestamps in
// ns.
func (p *parser) ms(key, stat string) *float64 {
	b, at := p.get(key)
	if b == nil {
		return nil
	}
	v, vpath := b.Avg, at+".avg"
	if stat == "p50" {
		v, vpath = b.P50, at+".p50"
	}
	x := p.c.Positive(vpath, v)
	if x == nil {
		return nil
	}
	scale, ok := unitScale[strings.ToLower(strings.TrimSpace(b.Unit))]
	if !ok {
		p.c.Add(at+".unit", "problem.formats.unit", map[string]any{"Unit": b.Unit})
		return nil
	}
	return run.F(*x * scale)
}

// unitScale converts a time unit to milliseconds; "" is taken as ms, the
// tools' unit for every latency.
var unitScale = map[string]float64{"": 1, "ms": 1, "s": 1000, "sec": 1000, "seconds": 1000, "us": 1e-3, "ns": 1e-6}

// avg reads a block's avg as a plain non-negative number.
func (p *parser) avg(key string) *float64 {
	b, at := p.get(key)
	if b == nil {
		return nil
	}
	return p.c.Measure(at+".avg", b.Avg)
}

func (p *parser) cell(conc int) (run.Measurement, bool) {
	m := run.Measurement{Path: "$", Concurrency: conc}
	isl := p.avg("isl")
	if isl == nil {
		isl = p.configuredPrompt()
	}
	if isl == nil {
		p.c.Add(p.base, "problem.formats.missing_field", map[string]any{"Field": "input_sequence_length"})
		return m, false
	}
	m.Context, m.MeasuredContext = sweep.Place(*isl)

	if v := p.avg("count"); v != nil {
		m.Completed = run.I(sweep.Round(*v))
	}
	errors := p.avg("errors")
	m.TotalTPS = p.avg("throughput")
	if errors != nil && *errors > 0 && (m.Completed != nil && *m.Completed == 0 || m.Completed == nil && m.TotalTPS == nil) {
		m.Failed = true
		m.FailureReason = fmt.Sprintf("all %.0f requests failed (error_request_count)", *errors)
		return m, true
	}
	m.TTFTms = p.ms("ttft", "p50")
	if m.TTFTms != nil && !p.streamed() {
		p.notes = append(p.notes, NoteTTFTIsLatency)
	}
	// Both tools' inter_token_latency excludes the first token and is per
	// request: (latency − TTFT) / (output tokens − 1), vLLM's TPOT.
	m.TBTms = p.ms("itl", "p50")
	m.PerRequestTPS = p.perRequest(m.TBTms)
	if d := p.ms("duration", "avg"); d != nil {
		m.MeasuredS = run.F(*d / 1000)
	}
	if v := p.avg("total_osl"); v != nil {
		// total_osl counts reasoning tokens too, as output_token_throughput does.
		m.OutputTokens = run.I(sweep.Round(*v))
	} else if osl := p.avg("osl"); osl != nil && m.Completed != nil {
		m.OutputTokens = run.I(sweep.Round(*osl * float64(*m.Completed)))
	}
	if m.MeasuredS == nil && m.Completed != nil {
		// GenAI-Perf stores no duration: requests ÷ requests per second.
		if rps := p.avg("request_tps"); rps != nil && *rps > 0 {
			m.MeasuredS = run.F(float64(*m.Completed) / *rps)
		}
	}
	return m, true
}

// perRequest is the decode speed one request saw: the tool's per-user
// figure, else 1000 ÷ the ITL (tbt), else the older per-request throughput,
// which includes the wait for the first token (noted).
func (p *parser) perRequest(tbt *float64) *float64 {
	if b, at := p.get("per_user"); b != nil {
		return p.c.Positive(at+".p50", b.P50)
	}
	if tbt != nil {
		return run.F(1000 / *tbt)
	}
	if b, at := p.get("per_request"); b != nil {
		v := p.c.Positive(at+".p50", b.P50)
		if v != nil {
			p.notes = append(p.notes, sweep.NotePerRequestIncludesTTFT)
		}
		return v
	}
	return nil
}

// configuredPrompt is the requested mean prompt length, when the export
// lacks the measured one.
func (p *parser) configuredPrompt() *float64 {
	ic := &p.ic
	if in := ic.Input; in != nil {
		if in.SyntheticTokens != nil && in.SyntheticTokens.Mean.Set {
			return p.c.Measure("$.input_config.input.synthetic_tokens.mean", in.SyntheticTokens.Mean.Ptr())
		}
		if in.Prompt != nil && in.Prompt.InputTokens != nil && in.Prompt.InputTokens.Mean.Set {
			return p.c.Measure("$.input_config.input.prompt.input_tokens.mean", in.Prompt.InputTokens.Mean.Ptr())
		}
	}
	return p.c.Measure("$.input_config.synthetic_input_tokens_mean", ic.SyntheticInput.Ptr())
}
