package report

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// sections lists Hardware, Engine and Run facts in the seed page's order,
// leaving out facts the run does not have and sections left empty.
func sections(r *run.Run, l *i18n.Localizer) []Section {
	var out []Section
	add := func(key, title string, facts []Fact) {
		if len(facts) > 0 {
			out = append(out, Section{Key: key, Title: l.T(title, nil), Facts: facts})
		}
	}
	add("hardware", "run.section.hardware", hardwareFacts(r.Hardware, l))
	add("engine", "run.section.engine", engineFacts(r.Engine, l))
	add("run", "run.section.run", runFacts(r, l))
	return out
}

// facts collects label–value pairs, skipping empty values.
type facts struct {
	l   *i18n.Localizer
	out []Fact
}

func (f *facts) add(labelID, value string) {
	f.addLink(labelID, value, "")
}

// addLink adds a fact whose value links to an entity page (Fact.Link).
func (f *facts) addLink(labelID, value, link string) {
	if value != "" {
		f.out = append(f.out, Fact{Label: f.l.T(labelID, nil), Value: value, Link: link})
	}
}

// known words a coded value in the reader's language, or shows it as
// written when the code is not one we know.
func known(l *i18n.Localizer, prefix, code string, codes ...string) string {
	for _, c := range codes {
		if c == code {
			return l.T(prefix+code, nil)
		}
	}
	return code
}

func hardwareFacts(h run.Hardware, l *i18n.Localizer) []Fact {
	f := &facts{l: l}
	f.add("run.hw.type", known(l, "hardware.", string(h.Type),
		string(run.DiscreteGPU), string(run.UnifiedMemory), string(run.CPUOnly), string(run.OtherHardware)))
	f.addLink("run.hw.gpu", gpuName(h, l), LinkHardware)
	if h.VRAMGB > 0 {
		id := "unit.gb"
		if h.GPUCount > 1 {
			id = "unit.gb_each"
		}
		f.add("run.hw.vram", l.T(id, map[string]any{"V": trimmed(l, h.VRAMGB)}))
	}
	cpu := h.CPUName
	if cpu != "" && h.CPUCores > 0 {
		cpu = l.T("unit.cores", map[string]any{"Name": h.CPUName, "Cores": l.Int(int64(h.CPUCores))})
	}
	cpuLink := "" // the hardware page, from the CPU when there is no GPU
	if h.GPUName == "" {
		cpuLink = LinkHardware
	}
	f.addLink("run.hw.cpu", cpu, cpuLink)
	if h.RAMGB > 0 {
		f.add("run.hw.ram", l.T("unit.gb", map[string]any{"V": trimmed(l, h.RAMGB)}))
	}
	f.add("run.hw.os", h.OS)
	f.add("run.hw.driver", h.Driver)
	return f.out
}

func engineFacts(e run.Engine, l *i18n.Localizer) []Fact {
	f := &facts{l: l}
	f.addLink("run.engine.engine", e.Name, LinkEngine)
	f.add("run.engine.version", e.Version)
	f.add("run.engine.quantization", e.Quantization)
	f.add("run.engine.backend", e.Backend)
	f.add("run.engine.build", e.Build)
	return f.out
}

func runFacts(r *run.Run, l *i18n.Localizer) []Fact {
	s := r.Settings
	f := &facts{l: l}
	f.add("run.settings.served_model", r.Model.ServedName)
	f.add("run.settings.revision", r.Model.Revision)
	f.add("run.settings.decode_mode", known(l, "decode_mode.", s.DecodeMode, run.DecodeDuration, run.DecodeRequestCount))
	f.add("run.settings.prefill_mode", known(l, "prefill_mode.", s.PrefillMode,
		run.PrefillIntegrated, run.PrefillStandalone, run.PrefillSkipped))
	if s.SecondsPerMeasurement > 0 {
		f.add("run.settings.seconds", l.T("unit.s", map[string]any{"V": trimmed(l, s.SecondsPerMeasurement)}))
	}
	if s.RequestCount > 0 {
		f.add("run.settings.request_count", l.Int(int64(s.RequestCount)))
	}
	if s.MaxOutputTokens > 0 {
		f.add("run.settings.max_output", l.N("unit.tokens", s.MaxOutputTokens, nil))
	}
	if s.KVBudgetTokens > 0 {
		f.add("run.settings.kv_budget", l.N("unit.tokens", int(s.KVBudgetTokens), nil))
	}
	return f.out
}
