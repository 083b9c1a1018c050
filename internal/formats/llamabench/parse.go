// Package llamabench reads llama.cpp's llama-bench output, `-o json` (an
// array, left without its closing bracket when the run crashed) and
// `-o jsonl` (one test per line). A tg test (n_gen > 0, n_prompt = 0) is a
// decode cell at concurrency 1 whose context is n_depth, the KV context
// pre-filled before the timed region; a pp test (n_prompt > 0, n_gen = 0) is
// a prefill row. Hardware and engine come from the file. The mapping is
// documented in docs/formats.md.
package llamabench

import (
	"math"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names this format on runs.
const Format = "llama-bench"

// ToolName is the tool's name as the report shows it.
const ToolName = "llama-bench"

// Detect reports whether top, the first test of a file, is a llama-bench
// record: build_commit beside avg_ts or model_filename.
func Detect(top map[string]jsontext.Value) bool {
	_, build := top["build_commit"]
	_, ts := top["avg_ts"]
	_, file := top["model_filename"]
	return build && (ts || file)
}

// Parse reads a whole llama-bench file.
func Parse(data []byte) (*run.Parsed, error) {
	docs, err := jsondoc.Split(data)
	if err != nil {
		return nil, err
	}
	p := &parser{probs: jsondoc.NewChecker()}
	out := &run.Parsed{Format: Format, Tool: run.Tool{Name: ToolName}, Provenance: run.Measured,
		Settings: run.Settings{Concurrencies: []int{1}}}
	for i, raw := range docs.Values {
		o := jsondoc.NewObject(raw, docs.Path(i), p.probs)
		if o == nil {
			continue
		}
		if p.first == nil {
			p.first = o
			facts(o, out)
		} else if !p.sameSetup(o) {
			continue
		}
		p.test(o, out)
	}
	if len(out.Decode) == 0 && len(p.probs.Problems) == 0 {
		p.probs.Add("$", "problem.formats.llamabench_no_tg", nil)
	}
	if docs.Truncated {
		out.Notes = append(out.Notes, sweep.NoteTruncated)
	}
	for _, n := range []struct {
		on   bool
		code string
	}{{len(out.Decode) > 0, sweep.NoteTBTFromMeanRate}, {p.pg, sweep.NotePGTestsIgnored}, {p.atDepth, sweep.NotePrefillAtDepth}} {
		if n.on {
			out.Notes = append(out.Notes, n.code)
		}
	}
	if err := p.probs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

type parser struct {
	probs       *jsondoc.Checker
	first       *jsondoc.Object
	pg, atDepth bool
}

// test reads one test as a decode cell (tg) or a prefill row (pp); pp+tg
// tests mix both in one rate and are left out.
func (p *parser) test(o *jsondoc.Object, out *run.Parsed) {
	nPrompt, nGen, nDepth := count(o, "n_prompt"), count(o, "n_gen"), count(o, "n_depth")
	tps := o.Measure("avg_ts")
	reps, seconds := samples(o)
	switch {
	case nGen > 0 && nPrompt > 0:
		p.pg = true
	case nGen > 0:
		m := run.Measurement{Path: o.Path, Context: int(nDepth), Concurrency: 1}
		m.TotalTPS, m.PerRequestTPS = tps, tps
		if tps != nil && *tps > 0 {
			m.TBTms = run.F(1000 / *tps)
		}
		if reps != nil {
			m.Completed = reps
			m.OutputTokens = run.I(*reps * nGen)
		}
		m.MeasuredS = seconds
		out.Decode = append(out.Decode, m)
	case nPrompt > 0:
		r := run.PrefillMeasurement{Path: o.Path, Context: int(nDepth + nPrompt), PromptTPS: tps, Completed: reps}
		if nDepth > 0 {
			p.atDepth = true
		} else if avg := o.Measure("avg_ns"); avg != nil && *avg > 0 {
			// One sequence: processing the whole prompt is its TTFT.
			r.TTFTms = run.F(*avg / 1e6)
		}
		out.Prefill = append(out.Prefill, r)
	}
}

// count reads a token count; out-of-range values are problems and read as 0.
func count(o *jsondoc.Object, key string) int64 {
	v := o.Count(key)
	if v == nil {
		return 0
	}
	if *v > math.MaxInt32/2 {
		o.Problem(key, "problem.context_range", map[string]any{"Value": *v})
		return 0
	}
	return *v
}

// samples returns the repetitions and the seconds they took: one entry of
// samples_ns per -r repetition, or avg_ns when an edited file lacks them.
func samples(o *jsondoc.Object) (reps *int64, seconds *float64) {
	ns := o.Floats("samples_ns")
	if len(ns) == 0 {
		return nil, nil
	}
	sum := 0.0
	for _, v := range ns {
		sum += v
	}
	return run.I(int64(len(ns))), run.F(sum / 1e9)
}
