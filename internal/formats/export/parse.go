package export

import (
	"fmt"

	"github.com/speedmatrix/speedmatrix/internal/formats/jsondoc"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// DedupeKeyPrefix marks a dedupe key made from a source document's hash; the
// ingest uses the same prefix, so an export of a run re-uploaded here finds
// that run.
const DedupeKeyPrefix = "sha256:"

// Parse reads a speedmatrix-run/1 document back into what the run was
// derived from.
func Parse(data []byte) (*run.Parsed, error) {
	var d Document
	if err := jsondoc.Decode(data, &d); err != nil {
		return nil, err
	}
	return parse(&d), nil
}

// ParseChecked is Parse of a document the codec has checked already.
func ParseChecked(text jsondoc.Checked) (*run.Parsed, error) {
	var d Document
	if err := text.Decode(&d); err != nil {
		return nil, err
	}
	return parse(&d), nil
}

func parse(d *Document) *run.Parsed {
	p := &run.Parsed{
		Format: Schema, Tool: d.Tool, Provenance: d.Provenance, Submitter: d.Submitter.Name,
		Hardware: d.Hardware, Engine: d.Engine, Model: d.Model, Settings: d.Settings,
		MeasuredAt: d.MeasuredAt, Profile: d.Profile, Integrity: d.Integrity, Telemetry: d.Telemetry,
	}
	if p.Provenance == "" {
		p.Provenance = run.Imported
	}
	if d.Source.SHA256 != "" {
		p.DedupeKey = DedupeKeyPrefix + d.Source.SHA256
	}
	for i, c := range d.Decode {
		switch {
		case c.Measured:
			p.Decode = append(p.Decode, run.Measurement{
				Path: fmt.Sprintf("$.decode[%d]", i), Context: c.Context, MeasuredContext: c.MeasuredContext,
				Concurrency: c.Concurrency, Metrics: c.Metrics, Signals: c.Signals, Telemetry: c.Telemetry,
			})
		case c.ReasonCode == run.ReasonPlan:
			p.Plan = append(p.Plan, run.PlanEntry{Context: c.Context, Concurrency: c.Concurrency,
				MeasuredContext: c.MeasuredContext, Skipped: true,
				OverCapacity: c.Status == run.OverCapacity, Reason: c.Reason})
		case c.MeasuredContext != 0:
			p.Plan = append(p.Plan, run.PlanEntry{Context: c.Context, Concurrency: c.Concurrency,
				MeasuredContext: c.MeasuredContext})
		}
	}
	for i, r := range d.Prefill {
		switch {
		case r.Measured:
			m := run.PrefillMeasurement{Path: fmt.Sprintf("$.prefill[%d]", i), Context: r.Context,
				MeasuredContext: r.MeasuredContext, PromptTPS: r.PromptTPS, TTFTms: r.TTFTms, Completed: r.Completed,
				Telemetry: r.Telemetry}
			if r.ReasonCode == run.ReasonSource {
				m.FailureReason = r.Reason
			}
			p.Prefill = append(p.Prefill, m)
		case r.ReasonCode == run.ReasonPlan || r.MeasuredContext != 0:
			p.Plan = append(p.Plan, run.PlanEntry{Prefill: true, Context: r.Context,
				MeasuredContext: r.MeasuredContext, Skipped: r.ReasonCode == run.ReasonPlan, Reason: r.Reason})
		}
	}
	return p
}
