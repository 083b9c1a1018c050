// Package guidellm reads the JSON reports of vLLM's GuideLLM (benchmarks.json),
// all three generations (docs/formats.md, "GuideLLM"). Each
// benchmark of a concurrency-driven profile becomes one cell of the run;
// benchmarks driven by a request rate have no concurrency to place them on
// and are left out with a note, or refused when nothing else is in the file.
package guidellm

import (
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/formats/sweep"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Format names this format on runs and in messages.
const Format = "guidellm"

// ToolName is the tool's name as the report shows it.
const ToolName = "GuideLLM"

// rateHint is what to run instead of a rate-driven profile (constant,
// poisson, throughput, sweep): one benchmark per concurrency level.
const rateHint = "guidellm benchmark --rate-type concurrent --rate 1,2,4,8,16 (or --rate-type synchronous)"

// Detect reports whether the top-level object of a document is a GuideLLM
// report: a benchmarks array whose entries name their type ("generative_benchmark").
func Detect(top map[string]jsontext.Value) bool {
	raw, ok := top["benchmarks"]
	if !ok {
		return false
	}
	var list []struct {
		Type string `json:"type_"`
	}
	if jsondoc.Unmarshal(raw, &list) != nil || len(list) == 0 {
		return false
	}
	return strings.HasSuffix(list[0].Type, "_benchmark")
}

// Parse reads one GuideLLM report.
func Parse(data []byte) (*run.Parsed, error) {
	var doc report
	if err := jsondoc.Decode(jsondoc.SanitizeToNull(data), &doc); err != nil {
		return nil, err
	}
	c := jsondoc.NewChecker()
	out := parse(&doc, c)
	if err := c.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func parse(doc *report, c *jsondoc.Checker) *run.Parsed {
	if len(doc.Benchmarks) == 0 {
		c.Add("$.benchmarks", "problem.formats.guidellm_no_benchmarks", map[string]any{"Tool": ToolName})
		return nil
	}
	out := &run.Parsed{
		Format:     Format,
		Tool:       run.Tool{Name: ToolName},
		Provenance: run.Measured,
		Model:      model(doc),
		MeasuredAt: sweep.EpochTime(doc.Benchmarks[0].StartTime),
	}
	if doc.Metadata != nil {
		out.Tool.Version = doc.Metadata.GuideLLMVersion
	}
	var skipped []*strategy
	var skippedAt string
	for i := range doc.Benchmarks {
		b := &doc.Benchmarks[i]
		at := fmt.Sprintf("$.benchmarks[%d]", i)
		if b.Type != "generative_benchmark" {
			c.Add(at+".type_", "problem.formats.guidellm_kind", map[string]any{"Type": b.Type})
			continue
		}
		s, spath := b.strategy()
		if s == nil {
			c.Add(at, "problem.formats.missing_field", map[string]any{"Field": "config.strategy"})
			continue
		}
		conc := 0
		switch s.Type {
		case "synchronous":
			conc = 1
		case "concurrent":
			conc = c.Concurrency(at+spath+".streams", s.Streams)
		default:
			if skipped = append(skipped, s); len(skipped) == 1 {
				skippedAt = at + spath
			}
			continue
		}
		if m, ok := cell(c, at, b, conc); ok {
			out.Decode = append(out.Decode, m)
		}
	}
	if len(out.Decode) == 0 && len(skipped) > 0 && len(c.Problems) == 0 {
		sweep.RateDriven(&c.List, skippedAt, ToolName, skipped[0].Rate, rateHint)
		return nil
	}
	if len(skipped) > 0 {
		out.Notes = append(out.Notes, sweep.NoteRateRowsSkipped)
	}
	// inter_token_latency_ms is each request's mean gap after the first
	// token: the median over requests of that is TPOT, not pooled gaps.
	out.Notes = append(out.Notes, sweep.NoteTBTIsTPOT)
	return out
}

// strategy finds the configured load where the report's generation keeps it,
// with its path relative to the benchmark.
func (b *benchmark) strategy() (*strategy, string) {
	switch {
	case b.Config != nil && b.Config.Strategy != nil:
		return b.Config.Strategy, ".config.strategy"
	case b.Scheduler != nil && b.Scheduler.Strategy != nil:
		return b.Scheduler.Strategy, ".scheduler.strategy"
	case b.Args != nil && b.Args.Strategy != nil:
		return b.Args.Strategy, ".args.strategy"
	}
	return nil, ""
}

// model reads the backend's model: per benchmark in every generation, with
// the report-level arguments as a fallback. v2 may write "" (the server's
// default model).
func model(doc *report) run.Model {
	var names []string
	for _, b := range doc.Benchmarks {
		if b.Config != nil && b.Config.Backend != nil {
			names = append(names, b.Config.Backend.Model)
		}
		if b.Benchmarker != nil && b.Benchmarker.Backend != nil {
			names = append(names, b.Benchmarker.Backend.Model)
		}
		if b.Worker != nil {
			names = append(names, b.Worker.BackendModel)
		}
	}
	if doc.Config != nil && doc.Config.Spec != nil && doc.Config.Spec.Backend != nil {
		names = append(names, doc.Config.Spec.Backend.Model)
	}
	var a v1Args
	if jsondoc.Unmarshal(doc.Args, &a) == nil {
		names = append(names, a.Model)
		if a.BackendKwargs != nil {
			names = append(names, a.BackendKwargs.Model)
		}
	}
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
