package browse

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// BestPoints are the grid points an entity page gives its best result at,
// in the order it lists them.
var BestPoints = []store.GridPoint{{Context: 0, Concurrency: 1}, {Context: 0, Concurrency: 8}, {Context: 0, Concurrency: 32},
	{Context: 32768, Concurrency: 1}, {Context: 32768, Concurrency: 8}, {Context: 131072, Concurrency: 1}}

// entityParam is each kind's filter parameter in /runs and /leaderboard.
var entityParam = map[string]string{store.KindHardware: "hardware", store.KindEngine: "engine",
	store.KindModel: "model", store.KindModelBase: "model", store.KindSubmitter: "submitter"}

// EntityFilter is the filter of the runs of one identity.
func EntityFilter(kind, slug string) store.RunFilter {
	var f store.RunFilter
	switch entityParam[kind] {
	case "hardware":
		f.Hardware = slug
	case "engine":
		f.Engine = slug
	case "model":
		f.Model = slug
	case "submitter":
		f.Submitter = slug
	}
	return f
}

// EntityData is what the store knows of one identity for its page.
type EntityData struct {
	// Kind is the identity's kind (a model slug naming a base model is
	// KindModelBase), Slug its slug and Name its name.
	Kind, Slug, Name string
	// Runs are its newest runs.
	Runs []store.RunItem
	// Bests are its best results at BestPoints; points nobody measured
	// are missing.
	Bests map[store.GridPoint]store.LeaderRow
	// Seen are the identities of the kinds SeenKinds names that it was
	// seen with; Versions an engine's versions.
	Seen     []store.Found
	Versions []store.VersionRuns
	// Histories link the setups it was measured in with several engine
	// versions to their history.
	Histories []Link
}

// seenPart is one group of an entity page's links across.
type seenPart struct {
	kind, label string
	href        func(string) string
}

// seenParts are the groups of links an identity of kind shows: the
// hardware, engines and models (and a base model's variants) seen with
// it, its own kind left out.
func seenParts(kind string) []seenPart {
	parts := []seenPart{
		{store.KindHardware, "entity.links.hardware", paths.Hardware},
		{store.KindEngine, "entity.links.engines", paths.Engine},
		{store.KindModelBase, "entity.links.models", paths.Model},
	}
	if kind == store.KindModelBase {
		parts = append(parts, seenPart{store.KindModel, "entity.links.variants", paths.Model})
	}
	return slices.DeleteFunc(parts, func(p seenPart) bool { return p.kind == kind })
}

// SeenKinds are the kinds whose identities an identity of kind links to,
// for the handler to load into EntityData.Seen.
func SeenKinds(kind string) []string {
	var out []string
	for _, p := range seenParts(kind) {
		out = append(out, p.kind)
	}
	return out
}

// NewEntityPage is /hardware/{slug}, /engines/{slug}, /models/{slug} or
// /submitters/{handle}: the identity's best results at common grid
// points, its newest runs, and links to what it was seen with.
func NewEntityPage(l *i18n.Localizer, e EntityData) EntityPage {
	p := EntityPage{Kind: l.T("entity.kind."+e.Kind, nil), Name: e.Name}
	p.Description = p.Kind + l.T("common.dot_sep", nil) + e.Name
	p.Runs = Runs(l, e.Runs)
	param := url.Values{entityParam[e.Kind]: {e.Slug}}.Encode()
	p.AllRunsHref = "/runs?" + param
	p.LeaderboardHref = "/leaderboard?" + param
	for _, pt := range BestPoints {
		b, ok := e.Bests[pt]
		if !ok {
			continue
		}
		p.Bests = append(p.Bests, Best{
			Cell:     l.T("entity.cell_label", map[string]any{"Context": report.ContextLabel(pt.Context), "Concurrency": l.Int(int64(pt.Concurrency))}),
			Value:    formatMetric(l, store.MetricTotal, b.Value),
			Href:     paths.RunCell(b.RunID, pt.Context, pt.Concurrency),
			Model:    link(b.ModelSlug, b.ModelName, paths.Model),
			Hardware: link(b.HardwareSlug, b.HardwareName, paths.Hardware),
			Engine:   link(b.EngineSlug, b.EngineName, paths.Engine),
			Demo:     b.Demo, Flags: report.FlagBadges(l, b.Flags),
		})
	}
	p.Groups = entityLinks(l, e)
	if len(e.Histories) > 0 {
		p.Groups = append(p.Groups, LinkGroup{Label: l.T("history.entity_links", nil), Links: e.Histories})
	}
	return p
}

// entityLinks are the links across, each kind by name; an engine's
// versions come first, newest first, each with its runs.
func entityLinks(l *i18n.Localizer, e EntityData) []LinkGroup {
	var out []LinkGroup
	if e.Kind == store.KindEngine {
		versions := slices.Clone(e.Versions)
		slices.SortFunc(versions, func(a, b store.VersionRuns) int { return strings.Compare(b.Version, a.Version) })
		lg := LinkGroup{Label: l.T("entity.links.versions", nil)}
		for _, v := range versions {
			lg.Links = append(lg.Links, Link{
				Href: "/runs?" + url.Values{"engine": {e.Slug}, "version": {v.Version}}.Encode(),
				Text: fmt.Sprintf("%s (%s)", v.Version, l.Int(v.Runs))})
		}
		out = append(out, lg)
	}
	for _, pt := range seenParts(e.Kind) {
		lg := LinkGroup{Label: l.T(pt.label, nil)}
		for _, f := range e.Seen {
			if f.Kind == pt.kind {
				lg.Links = append(lg.Links, Link{Href: pt.href(f.Slug), Text: f.Name})
			}
		}
		out = append(out, lg)
	}
	return out
}
