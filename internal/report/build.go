package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/formats/archive"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Build turns a run into its report view in l's language. It is the one
// place that decides what the page says; it reads statuses, never decides
// them.
func Build(r *run.Run, l *i18n.Localizer) *View {
	reasons := cellReasons(r, l)
	setup := calculator.ForRun(r)
	// Each cell's bound is shown in the grid, the table and the median.
	bounds := setup.Cells(r)
	effs := efficiencies(r, l, bounds)
	v := &View{
		ID:              r.ID,
		Title:           Title(r, l),
		ModelID:         r.Model.ID,
		EngineLine:      EngineLine(r, l),
		Summary:         Summary(r, l),
		SubmitterHandle: r.Submitter,
		Tool:            toolLine(r.Tool),
		ProvenanceKind:  r.Provenance,
		LaunchCommand:   r.Engine.LaunchCommand,
		Prefill:         prefillRows(r, l),
		Grid:            grid(r, l, reasons, effs),
		Rows:            rows(r, l, reasons, effs),
		Bound:           boundView(r, l, setup, bounds),
		StatusNotes:     statusNotes(r, l),
		TableNote:       l.T("run.note.medians", nil),
		SourceURL:       paths.RunFile(r.ID, "/source"),
		JSONURL:         paths.RunFile(r.ID, ".json"),
		Demo:            r.Demo,
		Entities:        entities(r),
	}
	v.Submitter = SubmitterBy(l, r.Submitter, r.SubmitterVerified)
	if r.SubmitterVerified && r.Org.Slug != "" {
		// Its own link beside the submitter's: "by @bob" "for ACME".
		v.Org = l.T("run.for_org", map[string]any{"Org": r.Org.Name})
	}
	if r.EditedAt != nil {
		v.Edited = l.T("run.edited", map[string]any{"When": Timestamp(*r.EditedAt)})
	}
	if r.Provenance != "" {
		v.Provenance = l.T("provenance."+string(r.Provenance), nil)
	}
	v.Verified, v.Badges = accountMarks(r, l)
	v.Badges = append(v.Badges, FlagBadges(l, setup.Flags(r))...)
	v.Sections = sections(r, l)
	if warmsPromptCache(r) {
		v.TTFTNote = l.T("run.note.ttft", nil)
	}
	v.ToolDocs = ToolDocsURL(r.SourceFormat)
	if archive.IsArchiveType(r.Source.ContentType) {
		v.SourceNote = l.T("run.download.archive_rebuilt", map[string]any{"SHA256": r.Source.SHA256})
	}
	v.Caveats = Caveats(r, l)
	v.SetEnergy(r, l, MetricTPS, run.DefaultKWhPrice)
	v.Description = l.T("run.description", map[string]any{"Title": v.Title, "Summary": v.Summary})
	return v
}

// warmsPromptCache reports runs of llm-inference-bench (directly or through
// lil-bench), whose decode phase warms the prompt cache before it measures,
// which is what the TTFT note explains. Other tools' TTFT includes prefill.
func warmsPromptCache(r *run.Run) bool {
	name := strings.ToLower(r.Tool.Name + " " + r.SourceFormat)
	return strings.Contains(name, "llm-inference-bench") || strings.Contains(name, "lil-bench")
}

// Title names the run: the model id's last path segment, then the
// hardware: "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB".
func Title(r *run.Run, l *i18n.Localizer) string { return TitleOf(r.Model, r.Hardware, l) }

// TitleOf is Title from a run's model and hardware alone, for lists that
// hold those fields but not the whole run, so a run is named the same way
// on its report page, in every list and in every export.
func TitleOf(m run.Model, h run.Hardware, l *i18n.Localizer) string {
	model := m.ID
	if i := strings.LastIndex(model, "/"); i >= 0 && i < len(model)-1 {
		model = model[i+1:]
	}
	if model == "" {
		model = m.ServedName
	}
	if model == "" {
		model = l.T("run.title.unknown_model", nil)
	}
	return l.T("run.title", map[string]any{"Model": model, "Hardware": hardwareName(h, l)})
}

// hardwareName is "RTX 3060 12GB", "2× RTX 3090 24GB", or the CPU's name on
// a CPU-only machine.
func hardwareName(h run.Hardware, l *i18n.Localizer) string {
	if h.Type == run.CPUOnly || h.GPUName == "" {
		if h.CPUName != "" {
			return h.CPUName
		}
		if h.GPUName == "" {
			return l.T("run.title.unknown_hardware", nil)
		}
	}
	s := gpuName(h, l)
	if h.VRAMGB > 0 && !namesMemory(h.GPUName, h.VRAMGB) {
		s += " " + l.T("unit.gb_compact", map[string]any{"V": trimmed(l, h.VRAMGB)})
	}
	return s
}

// namesMemory reports whether a GPU's name says its memory already, as
// NVIDIA's "H100 80GB HBM3" does: the title would say "80GB 80GB".
func namesMemory(name string, gb float64) bool {
	n := strings.ToUpper(name)
	v := strconv.FormatFloat(gb, 'f', -1, 64)
	return strings.Contains(n, v+"GB") || strings.Contains(n, v+" GB")
}

// gpuName is the GPU's name with "2× " in front when there are several.
func gpuName(h run.Hardware, l *i18n.Localizer) string {
	if h.GPUCount > 1 {
		return l.T("unit.count_x", map[string]any{"V": l.Int(int64(h.GPUCount))}) + h.GPUName
	}
	return h.GPUName
}

// EngineLine is "vllm · 0.32.0 · FP8 dynamic", skipping what is unknown.
func EngineLine(r *run.Run, l *i18n.Localizer) string {
	return joinNonEmpty(l.T("common.dot_sep", nil), r.Engine.Name, r.Engine.Version, r.Engine.Quantization)
}

// Summary is "6 contexts (0–248K) × 8 concurrency levels (1–128) · prefill
// at 8K, 16K, 32K, 64K, 128K": the shape of the grid in one line.
func Summary(r *run.Run, l *i18n.Localizer) string {
	ctxs, concs := Axes(r)
	var grid string
	if len(ctxs) > 0 {
		grid = l.N("run.summary.contexts", len(ctxs), map[string]any{"Range": span(ctxs, ContextLabel)}) +
			" × " + l.N("run.summary.concurrencies", len(concs), map[string]any{"Range": span(concs, func(c int) string { return l.Int(int64(c)) })})
	}
	var prefill string
	if len(r.Prefill) > 0 {
		labels := make([]string, len(r.Prefill))
		for i, p := range r.Prefill {
			labels[i] = ContextLabel(p.Context)
		}
		prefill = l.T("run.summary.prefill", map[string]any{"List": strings.Join(labels, l.T("common.list_sep", nil))})
	}
	return joinNonEmpty(l.T("common.dot_sep", nil), grid, prefill)
}

// Axes returns the contexts and concurrencies of every decode cell of the
// runs, sorted and without repeats. For one run that is its grid (derived
// cells already span the declared grid); compare lays several runs out on
// the grid that holds them all.
func Axes(runs ...*run.Run) (ctxs, concs []int) {
	for _, r := range runs {
		for _, c := range r.Decode {
			ctxs = append(ctxs, c.Context)
			concs = append(concs, c.Concurrency)
		}
	}
	slices.Sort(ctxs)
	slices.Sort(concs)
	return slices.Compact(ctxs), slices.Compact(concs)
}

// span is "0–248K" for a sorted axis, or the one value when there is one.
func span(vals []int, label func(int) string) string {
	if len(vals) == 1 {
		return label(vals[0])
	}
	return label(vals[0]) + "–" + label(vals[len(vals)-1])
}

func toolLine(t run.Tool) string {
	if t.Version == "" || t.Name == "" {
		return t.Name
	}
	// "v" goes before numeric versions only: "llm-inference-bench v0.8.0",
	// but "llama-bench b5163".
	if c := t.Version[0]; c < '0' || c > '9' {
		return t.Name + " " + t.Version
	}
	return t.Name + " v" + t.Version
}

func joinNonEmpty(sep string, parts ...string) string {
	parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
	return strings.Join(parts, sep)
}
