// Package browse turns what the store lists — runs, best cells, identities
// — into the browse pages' view models: the runs list, the leaderboard,
// the entity pages, the home page and search. Every function is a plain
// function of store data and the reader's localizer, so the pages'
// wording and links are tested without HTTP or a database. It sits
// between the store and the templates: the templates never see a store
// type.
package browse

import (
	"time"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// ItemHardware is the hardware a listed run declared.
func ItemHardware(it *store.RunItem) run.Hardware {
	return run.Hardware{Type: run.HardwareType(it.HardwareType), GPUName: it.GPUName, GPUCount: it.GPUCount,
		VRAMGB: it.VRAMGB, CPUName: it.CPUName}
}

// ItemTitle names a listed run as its report page names it.
func ItemTitle(l *i18n.Localizer, it *store.RunItem) string {
	return report.TitleOf(run.Model{ID: it.ModelID, ServedName: it.ModelServedName}, ItemHardware(it), l)
}

// Runs describes runs for a list (/runs, home, entity pages), each named
// as its report page names it.
func Runs(l *i18n.Localizer, items []store.RunItem) []BrowseRun {
	out := make([]BrowseRun, len(items))
	for i := range items {
		out[i] = browseRun(l, &items[i])
	}
	return out
}

func browseRun(l *i18n.Localizer, it *store.RunItem) BrowseRun {
	hw := catalog.Hardware(ItemHardware(it))
	model, _ := catalog.Model(it.ModelID)
	return BrowseRun{
		ID: it.ID, Title: ItemTitle(l, it), Href: paths.Run(it.ID),
		Hardware:      link(it.HardwareSlug, hw.Name, paths.Hardware),
		Engine:        link(it.EngineSlug, catalog.Engine(it.EngineName).Name, paths.Engine),
		Model:         link(it.ModelSlug, model.Name, paths.Model),
		Submitter:     link(it.SubmitterSlug, report.Submitter(l, it.Submitter, it.SubmitterVerified), paths.Submitter),
		EngineVersion: it.EngineVersion, Quantization: it.Quantization,
		Uploaded: l.Ago(it.UploadedAt, time.Now()), UploadedISO: it.UploadedAt.UTC().Format(time.DateOnly),
		Single: report.FormatTPS(l, it.BestSingleTPS), Peak: report.FormatTPS(l, it.BestPeakTPS),
		Demo: it.Demo, Flags: report.FlagBadges(l, it.Flags),
	}
}

// link is a Link to the page of slug, or plain text when there is no slug.
func link(slug, name string, href func(string) string) Link {
	if slug == "" {
		return Link{Text: name}
	}
	return Link{Href: href(slug), Text: name}
}

// Home is what the home page shows beside its pitch: the newest runs and
// the top of the leaderboard q asked for.
func Home(l *i18n.Localizer, recent []store.RunItem, q store.LeaderQuery, top []store.LeaderRow) HomeData {
	return HomeData{Recent: Runs(l, recent), Teaser: LeaderRows(l, q, top, true)}
}
