// Package regressview is /regressions as its pages show it: the
// regressions and speedups between consecutive engine versions (the
// store reads them, Store.VersionChanges; package regress decides;
// package upstream words the report for the engine's tracker), with
// filters by engine and hardware, newest first, its Atom feed and API
// shape, and the links a report and a history page give to them.
package regressview

import (
	"math"
	"net/url"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/differs"
	"github.com/speedmatrix/speedmatrix/internal/history"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/internal/upstream"
)

// Addresses of the page and its feed.
const (
	Path     = "/regressions"
	FeedPath = "/regressions.atom"
)

// URL is /regressions filtered by engine and hardware slugs ("" for any).
func URL(engine, hardware string) string {
	v := url.Values{}
	if engine != "" {
		v.Set("engine", engine)
	}
	if hardware != "" {
		v.Set("hardware", hardware)
	}
	if len(v) == 0 {
		return Path
	}
	return Path + "?" + v.Encode()
}

// Anchor is the id of a change's entry on the page: its two runs, which
// stand for one pair of versions of one setup.
func Anchor(e regress.Entry) string { return "change-" + e.OldRun + "-" + e.NewRun }

// Href is the address of a change's entry, on the page filtered to its
// engine and hardware, so it is among the entries shown.
func Href(e store.VersionChange) string { return URL(e.Engine, e.Hardware) + "#" + Anchor(e.Entry) }

// Option is one choice of a filter.
type Option struct {
	Value, Label string
	Selected     bool
}

// Page is /regressions.
type Page struct {
	Title, Sub string
	// Engine and Hardware are the filters' current slugs.
	Engine, Hardware string
	// Engines and Hardwares are the filters' choices, "any" first.
	Engines, Hardwares []Option
	Items              []Item
	// Empty says why nothing is listed, when nothing is.
	Empty string
	// FeedHref is the Atom feed of the engine filtered (the feed filters
	// by engine only).
	FeedHref string
}

// Item is one regression or speedup.
type Item struct {
	Anchor string
	Kind   regress.Kind
	// KindLabel is "Regression" or "Speedup"; Heading is "vLLM 0.31.0 →
	// 0.32.0"; Setup is "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB · FP8
	// dynamic"; Change is "−20 % at 0 × 1"; Moved is "48 of 48 shared
	// cells moved 10 % or more"; Seen is the date the newer run came.
	KindLabel, Heading, Setup, Change, Moved, Seen string
	// Cells are every shared cell, before → after.
	Cells []CellRow
	// SetupChanged lists what changed beside the engine version; its
	// Note says so, empty when nothing did.
	SetupChanged []differs.Row
	SetupNote    string
	// Links to both runs' reports and the setup's history.
	OldHref, NewHref, OldID, NewID, HistoryHref string
	Demo                                        bool
	// Report is the Markdown text for the engine's tracker; ReportID
	// names its copy block; IssueURL opens a new issue there (empty for
	// an engine without a known tracker) and IssueLabel words the link.
	Report, ReportID, IssueURL, IssueLabel string
}

// CellRow is one shared cell.
type CellRow struct {
	Label, Old, New, Change string
	// Moved is set when the cell moved by the threshold or more.
	Moved bool
}

// Choices are the filters' options: slugs and names.
type Choices struct {
	Engines, Hardwares []catalog.Identity
}

// NewPage builds /regressions from the entries read with the page's
// filters. origin is the site's address ("https://…"), for the absolute
// links of the upstream reports; en words those reports (they are
// written in English for the engines' maintainers).
func NewPage(l, en *i18n.Localizer, origin, engine, hardware string, c Choices, entries []store.VersionChange) Page {
	p := Page{Title: l.T("regressions.title", nil), Sub: l.T("regressions.sub", nil),
		Engine: engine, Hardware: hardware, FeedHref: FeedPath}
	if engine != "" {
		p.FeedHref += "?" + url.Values{"engine": {engine}}.Encode()
	}
	p.Engines = options(l, c.Engines, engine)
	p.Hardwares = options(l, c.Hardwares, hardware)
	for _, e := range entries {
		p.Items = append(p.Items, NewItem(l, en, origin, e))
	}
	if len(p.Items) == 0 {
		p.Empty = l.T("regressions.empty", nil)
	}
	return p
}

func options(l *i18n.Localizer, ids []catalog.Identity, current string) []Option {
	out := []Option{{Value: "", Label: l.T("regressions.any", nil), Selected: current == ""}}
	for _, id := range ids {
		out = append(out, Option{Value: id.Slug, Label: id.Name, Selected: id.Slug == current})
	}
	return out
}

// NewItem words one change.
func NewItem(l, en *i18n.Localizer, origin string, e store.VersionChange) Item {
	engine := catalog.Engine(e.New.Engine.Name).Name
	it := Item{Anchor: Anchor(e.Entry), Kind: e.Kind, KindLabel: l.T("regressions.kind."+string(e.Kind), nil),
		Heading: l.T("regressions.heading", map[string]any{"Engine": engine, "Old": e.OldVersion, "New": e.NewVersion}),
		Setup:   setupLine(l, e),
		Seen:    l.Date(e.SeenAt),
		OldHref: paths.Run(e.OldRun), NewHref: paths.Run(e.NewRun), OldID: e.OldRun, NewID: e.NewRun,
		HistoryHref: history.URL(store.HistoryQuery{Model: e.Model, Hardware: e.Hardware, Engine: e.Engine,
			Quantization: e.Quantization, Concurrency: 1}),
		Demo: e.Old.Demo || e.New.Demo, ReportID: "report-" + Anchor(e.Entry)}
	it.Change = changeLine(l, e.Change)
	moved := 0
	for _, c := range e.Cells {
		k := differs.Cell{Context: c.Context, Concurrency: c.Concurrency}
		m := math.Abs(c.Change()) >= regress.Threshold-1e-9
		if m {
			moved++
		}
		it.Cells = append(it.Cells, CellRow{Label: differs.CellLabel(l, k), Old: report.FormatTPSCompact(l, &c.Old),
			New: report.FormatTPSCompact(l, &c.New), Change: report.FormatChange(l, c.Old, c.New), Moved: m})
	}
	it.Moved = l.T("regressions.moved", map[string]any{"Moved": l.Int(int64(moved)), "Shared": l.Int(int64(len(e.Cells)))})
	for _, d := range differs.SetupChanges(e.Old, e.New) {
		// Older on the left, as the cells read: Other is the older run's.
		r := differs.NewRow(l, d)
		r.This, r.Other = r.Other, r.This
		it.SetupChanged = append(it.SetupChanged, r)
	}
	if len(it.SetupChanged) > 0 {
		it.SetupNote = l.T("regressions.setup_changed", nil)
	}
	up := Upstream(en, origin, e)
	it.Report, it.IssueURL = up.Markdown(), up.IssueURL()
	if it.IssueURL != "" {
		it.IssueLabel = l.T("regressions.open_issue", map[string]any{"Engine": engine})
	}
	return it
}

// Upstream is the change as the engine's tracker is told of it, named in
// English by en; origin makes its links absolute.
func Upstream(en *i18n.Localizer, origin string, e store.VersionChange) upstream.Report {
	return upstream.Report{Entry: e.Entry, Engine: catalog.Engine(e.New.Engine.Name).Name,
		Hardware: report.HardwareName(e.New, en), Model: modelName(e), Quantization: e.New.Engine.Quantization,
		OldURL: paths.RunURL(origin, e.OldRun), NewURL: paths.RunURL(origin, e.NewRun),
		PageURL: origin + Href(e)}
}

func modelName(e store.VersionChange) string {
	if e.New.Model.ID != "" {
		return e.New.Model.ID
	}
	return e.New.Model.ServedName
}

func setupLine(l *i18n.Localizer, e store.VersionChange) string {
	s := report.Title(e.New, l)
	if q := e.New.Engine.Quantization; q != "" {
		s += l.T("common.dot_sep", nil) + q
	}
	return s
}

// changeLine is "−20 % at 0 × 1", or "−15 % (median of 12 shared cells)".
func changeLine(l *i18n.Localizer, c regress.Change) string {
	if c.HasHeadline && math.Abs(c.Headline.Change()) >= regress.Threshold-1e-9 {
		return l.T("regressions.change_at", map[string]any{
			"Change": report.FormatChange(l, c.Headline.Old, c.Headline.New),
			"Cell":   differs.CellLabel(l, differs.Cell{Context: c.Headline.Context, Concurrency: c.Headline.Concurrency})})
	}
	return l.T("regressions.change_median", map[string]any{
		"Change": report.FormatChange(l, 100, 100+c.Percent), "Shared": l.Int(int64(len(c.Cells)))})
}

// Link is a report's or a history's link to a change on /regressions.
type Link struct {
	Href, Text string
	Kind       regress.Kind
}

// Links are the links to the changes entries name (those of a run, for
// its report; those of a setup, for its history).
func Links(l *i18n.Localizer, entries []store.VersionChange) []Link {
	var out []Link
	for _, e := range entries {
		out = append(out, Link{Href: Href(e), Kind: e.Kind, Text: l.T("regressions.link."+string(e.Kind), map[string]any{
			"Engine": catalog.Engine(e.New.Engine.Name).Name, "Old": e.OldVersion, "New": e.NewVersion,
			"Change": changeLine(l, e.Change)})})
	}
	return out
}
