// Package llmbench reads benchmark_results.json as written by
// llm-inference-bench's llm_decode_bench.py, every version from 0.2.0 on
// (samples of each in testdata/formats/llm-inference-bench). It turns the tool's
// records into clean measurements: seconds become milliseconds, failure
// sentinels become failure signals, and any other negative number is refused.
package llmbench

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names this format on runs and in messages.
const Format = "llm-inference-bench"

// ToolName is the tool's name as the report shows it.
const ToolName = "llm-inference-bench"

// Sentinel values of aggregate_tps for cells the tool writes as invalid
// (0.6.0+): a repetition loop and an error. -1 (KV skip) and -2 (user skip)
// are never written.
const (
	loopSentinel  = -3.0
	errorSentinel = -4.0
)

// Parse reads a whole benchmark_results.json.
func Parse(data []byte) (*run.Parsed, error) {
	var doc document
	if err := jsondoc.Decode(data, &doc); err != nil {
		return nil, err
	}
	return parse(&doc, "$")
}

// ParseChecked reads a bench document the codec has checked already,
// found at JSON path base of the document it came in (lil-bench embeds it
// at $.results.bench); problem paths are given from that document's root.
func ParseChecked(text jsondoc.Checked, base string) (*run.Parsed, error) {
	var doc document
	if err := text.Decode(&doc); err != nil {
		return nil, problem.Rebase(err, base)
	}
	return parse(&doc, base)
}

func parse(doc *document, base string) (*run.Parsed, error) {
	p := &parser{doc: doc, base: base, problems: jsondoc.NewChecker()}
	parsed := p.parse()
	if err := p.problems.Err(); err != nil {
		return nil, err
	}
	return parsed, nil
}

type parser struct {
	doc      *document
	base     string
	version  version
	problems *jsondoc.Checker
}

func (p *parser) path(rest string) string { return p.base + rest }

func (p *parser) parse() *run.Parsed {
	m := p.doc.Metadata
	if m == nil {
		p.problems.Add(p.path(""), "problem.llmbench.no_metadata", nil)
		return nil
	}
	if m.Mode != "" {
		p.problems.Add(p.path(".metadata.mode"), "problem.llmbench.mode", map[string]any{"Mode": m.Mode})
		return nil
	}
	if m.PrefillOnly {
		p.problems.Add(p.path(".metadata.prefill_only"), "problem.llmbench.prefill_only", nil)
		return nil
	}
	toolVersion := ""
	if m.Version != nil {
		toolVersion = *m.Version
		p.version = parseVersion(toolVersion)
	}
	out := &run.Parsed{
		Format:     Format,
		Tool:       run.Tool{Name: ToolName, Version: toolVersion},
		Provenance: run.Measured,
		MeasuredAt: m.Timestamp,
		Engine:     run.Engine{Name: m.Engine, Version: p.engineVersion()},
		Model:      modelFromServed(m.Model),
		Hardware:   p.hardware(),
		Settings:   p.settings(),
	}
	out.Prefill = p.prefill()
	out.Decode = p.cells()
	out.Telemetry = p.runTelemetry()
	return out
}

func modelFromServed(name string) run.Model {
	mdl := run.Model{ServedName: name}
	// A served name with an organisation prefix is a Hugging Face id.
	for _, r := range name {
		if r == '/' {
			mdl.ID = name
			break
		}
	}
	return mdl
}

func (p *parser) settings() run.Settings {
	m := p.doc.Metadata
	s := run.Settings{
		DecodeMode:  m.DecodeMode,
		PrefillMode: m.PrefillMode,
	}
	if s.DecodeMode == "" {
		s.DecodeMode = run.DecodeDuration
	}
	s.SecondsPerMeasurement = p.nonNegative(p.base, ".metadata.duration_per_test", m.DurationPerTest)
	s.RequestCount = p.integer(p.base, ".metadata.request_count", m.RequestCount)
	s.MaxOutputTokens = p.integer(p.base, ".metadata.max_tokens", m.MaxTokens)
	s.KVBudgetTokens = int64(p.integer(p.base, ".metadata.max_total_tokens", m.MaxTotalTokens))
	for i, v := range m.ContextLengths {
		s.Contexts = append(s.Contexts, p.integer(p.base, fmt.Sprintf(".metadata.context_lengths[%d]", i), &v))
	}
	for i, v := range m.ConcurrencyLevels {
		c := p.integer(p.base, fmt.Sprintf(".metadata.concurrency_levels[%d]", i), &v)
		if c < 1 && v >= 0 {
			p.problems.Add(p.path(fmt.Sprintf(".metadata.concurrency_levels[%d]", i)), "problem.concurrency", map[string]any{"Value": v})
		}
		s.Concurrencies = append(s.Concurrencies, c)
	}
	return s
}

// prefill reads the prefill map, keyed by the context as a string. Its
// keys are read in one fixed order (prefillKeys), not the map's, so the
// same file gives the same rows and the same problems, first one first,
// every time.
func (p *parser) prefill() []run.PrefillMeasurement {
	var rows []run.PrefillMeasurement
	for _, key := range prefillKeys(p.doc.Prefill) {
		rec := p.doc.Prefill[key]
		at := ".prefill" + jsondoc.Key(key)
		ctx, err := strconv.Atoi(key)
		if err != nil || ctx < 0 {
			p.problems.Add(p.path(".prefill"+jsondoc.Key(key)), "problem.llmbench.prefill_key", map[string]any{"Key": key})
			continue
		}
		row := run.PrefillMeasurement{Path: p.path(at), Context: ctx}
		if tps := p.nonNegative(row.Path, ".tok_per_sec", rec.TokPerSec); rec.TokPerSec != nil {
			row.PromptTPS = run.F(tps)
		}
		if ttft := p.nonNegative(row.Path, ".ttft_seconds", rec.TTFTSeconds); ttft > 0 {
			row.TTFTms = run.F(ttft * 1000)
		}
		if rec.Samples != nil {
			row.Completed = run.I(int64(p.integer(row.Path, ".samples", rec.Samples)))
		}
		row.Telemetry = p.telemetry(row.Path+".hardware_summary", rec.Hardware)
		rows = append(rows, row)
	}
	return rows
}

// prefillKeys are m's keys by the context they name, smallest first; keys
// that name none (refused by prefill) come last, in string order.
func prefillKeys[V any](m map[string]V) []string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		x, errA := strconv.Atoi(a)
		y, errB := strconv.Atoi(b)
		switch {
		case errA == nil && errB == nil && x != y:
			return cmp.Compare(x, y)
		case (errA == nil) != (errB == nil):
			if errA == nil {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

// nonNegative returns *v, the measurement (fractional or not) at
// path+field (path from the document's root), checked by the number rules
// every format shares (jsondoc.Checker.MeasureAt). A nil v reads as 0, as
// does a refused one.
func (p *parser) nonNegative(path, field string, v *float64) float64 {
	x, _ := p.problems.MeasureValue(path, field, v)
	return x
}

// integer returns *v, at path+field, as a whole number
// (jsondoc.Checker.CountAt); a value above any the tool writes
// (MaxInt32 × 64) is refused too. A nil or refused v reads as 0.
func (p *parser) integer(path, field string, v *float64) int {
	n, ok := p.problems.CountValue(path, field, v)
	if !ok {
		return 0
	}
	if n > math.MaxInt32*64 {
		p.problems.Add(path+field, "problem.integer", map[string]any{"Value": float64(n)})
		return 0
	}
	return int(n)
}
