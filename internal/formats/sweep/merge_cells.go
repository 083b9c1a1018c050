package sweep

import (
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

type cell struct{ ctx, conc int }

// combine lays the files over each other: cells, prefill rows and plan
// entries are the union (a cell two files measured is refused, naming
// both); facts come from whichever file knows them (checkFacts made sure
// they agree); settings the files disagree on are left unknown, the
// declared grids are joined, and the earliest measurement time is kept.
func combine(probs *problem.List, parts []Part, odd map[int]bool) *run.Parsed {
	base := 0
	for base < len(parts)-1 && odd[base] {
		base++ // the result is thrown away when every file is odd
	}
	out := *parts[base].Parsed
	out.DedupeKey = DedupeKey(parts)
	out.Decode, out.Prefill, out.Plan, out.Notes = nil, nil, nil, nil
	decodeFrom := map[cell]string{}
	prefillFrom := map[int]string{}
	for i, pt := range parts {
		if odd[i] {
			continue
		}
		p := pt.Parsed
		for _, m := range p.Decode {
			m.Path = Rebase(pt.Name, m.Path)
			k := cell{m.Context, m.Concurrency}
			if first, dup := decodeFrom[k]; dup && first != pt.Name {
				probs.Add(m.Path, "problem.formats.sweep_duplicate", map[string]any{
					"File": pt.Name, "First": first, "Context": m.Context, "Concurrency": m.Concurrency})
				continue
			}
			decodeFrom[k] = pt.Name
			out.Decode = append(out.Decode, m)
		}
		for _, r := range p.Prefill {
			r.Path = Rebase(pt.Name, r.Path)
			if first, dup := prefillFrom[r.Context]; dup && first != pt.Name {
				probs.Add(r.Path, "problem.formats.sweep_duplicate_prefill", map[string]any{
					"File": pt.Name, "First": first, "Context": r.Context})
				continue
			}
			prefillFrom[r.Context] = pt.Name
			out.Prefill = append(out.Prefill, r)
		}
		out.Plan = append(out.Plan, p.Plan...)
		for _, n := range p.Notes {
			if !slices.Contains(out.Notes, n) {
				out.Notes = append(out.Notes, n)
			}
		}
		if i != base {
			fill(&out, p)
		}
	}
	return &out
}

// fill takes from p what out does not know yet.
func fill(out, p *run.Parsed) {
	str := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	str(&out.Tool.Name, p.Tool.Name)
	str(&out.Tool.Version, p.Tool.Version)
	str(&out.Submitter, p.Submitter)
	str(&out.Profile, p.Profile)
	str(&out.Integrity, p.Integrity)
	str(&out.Model.ID, p.Model.ID)
	str(&out.Model.ServedName, p.Model.ServedName)
	str(&out.Model.Revision, p.Model.Revision)
	oe, pe := &out.Engine, p.Engine
	for _, f := range [][2]*string{{&oe.Name, &pe.Name}, {&oe.Version, &pe.Version}, {&oe.Quantization, &pe.Quantization},
		{&oe.Backend, &pe.Backend}, {&oe.Build, &pe.Build}, {&oe.LaunchCommand, &pe.LaunchCommand}} {
		str(f[0], *f[1])
	}
	oh, ph := &out.Hardware, p.Hardware
	str(&oh.GPUName, ph.GPUName)
	str(&oh.CPUName, ph.CPUName)
	str(&oh.OS, ph.OS)
	str(&oh.Driver, ph.Driver)
	if oh.Type == "" {
		oh.Type = ph.Type
	}
	for _, f := range [][2]*int{{&oh.GPUCount, &ph.GPUCount}, {&oh.CPUCores, &ph.CPUCores}} {
		if *f[0] == 0 {
			*f[0] = *f[1]
		}
	}
	for _, f := range [][2]*float64{{&oh.VRAMGB, &ph.VRAMGB}, {&oh.RAMGB, &ph.RAMGB}} {
		if *f[0] == 0 {
			*f[0] = *f[1]
		}
	}
	if p.MeasuredAt != "" && (out.MeasuredAt == "" || p.MeasuredAt < out.MeasuredAt) {
		out.MeasuredAt = p.MeasuredAt
	}
	settings(&out.Settings, p.Settings)
}

// settings joins the declared grids; a setting the files disagree on (each
// file of a sweep often sends its own number of requests) becomes unknown.
func settings(out *run.Settings, s run.Settings) {
	same := func(dst *string, v string) {
		if *dst != v {
			*dst = ""
		}
	}
	same(&out.DecodeMode, s.DecodeMode)
	same(&out.PrefillMode, s.PrefillMode)
	for _, f := range [][2]*int{{&out.RequestCount, &s.RequestCount}, {&out.MaxOutputTokens, &s.MaxOutputTokens},
		{&out.MaxRunningRequests, &s.MaxRunningRequests}} {
		if *f[0] != *f[1] {
			*f[0] = 0
		}
	}
	if out.SecondsPerMeasurement != s.SecondsPerMeasurement {
		out.SecondsPerMeasurement = 0
	}
	if out.KVBudgetTokens != s.KVBudgetTokens {
		out.KVBudgetTokens = 0
	}
	out.Contexts = union(out.Contexts, s.Contexts)
	out.Concurrencies = union(out.Concurrencies, s.Concurrencies)
	out.PrefillContexts = union(out.PrefillContexts, s.PrefillContexts)
}

func union(a, b []int) []int {
	u := append(slices.Clone(a), b...)
	slices.Sort(u)
	return slices.Compact(u)
}
