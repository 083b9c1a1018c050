package web

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
)

// browseStore is what the browse area needs of the database.
type browseStore interface {
	ListRuns(ctx context.Context, f store.RunFilter, sort store.RunSort, after *store.Cursor, limit int) ([]store.RunItem, bool, error)
	Leaderboard(ctx context.Context, q store.LeaderQuery) ([]store.LeaderRow, error)
	IdentityName(ctx context.Context, kind, slug string) (string, error)
	IdentityNames(ctx context.Context, kind string, slugs []string) (map[string]string, error)
	Identities(ctx context.Context, kind string, limit int) ([]catalog.Identity, error)
	SeenWith(ctx context.Context, kind, slug string, kinds []string) ([]store.Found, error)
	EngineVersions(ctx context.Context, engine string) ([]store.VersionRuns, error)
	BestAt(ctx context.Context, kind, slug string, points []store.GridPoint) (map[store.GridPoint]store.LeaderRow, error)
	Search(ctx context.Context, text string, limit int) ([]store.Found, error)
	CountIdentities(ctx context.Context, kind string) ([]store.IdentityRuns, error)
}

// browseRoutes mounts the browse area's pages: /runs, /leaderboard, /hardware/{slug}, /engines/{slug}, /models/{slug},
// /submitters/{handle} and the read API's lists (issue 3, issue 4 §3).
func (s *Server) browseRoutes(r chi.Router) {
	r.Get("/runs", s.wrap(s.runsPage, false))
	r.Get("/leaderboard", s.wrap(s.leaderboardPage, false))
	r.Get("/search", s.wrap(s.searchPage, false))
	r.Get("/hardware/{slug}", s.wrap(s.entityPage(store.KindHardware), false))
	r.Get("/engines/{slug}", s.wrap(s.entityPage(store.KindEngine), false))
	r.Get("/models/{slug}", s.wrap(s.entityPage(store.KindModel), false))
	r.Get("/submitters/{slug}", s.wrap(s.entityPage(store.KindSubmitter), false))
}

// browseAPI mounts the browse area's API endpoints under /api/v1.
func (s *Server) browseAPI(api chi.Router) {
	api.Get("/runs", s.wrap(s.apiListRuns, true))
	for _, l := range apiIdentityLists {
		api.Get(l.path, s.wrap(s.apiIdentities(l.field, l.kind, l.param, l.page), true))
	}
}

var errBadRequest = &httpError{status: http.StatusBadRequest, key: "error.invalid"}

// filterParams are the URL parameters of the filters, shared by /runs, the
// leaderboard and the API.
var filterParams = []struct{ param, kind string }{
	{"model", store.KindModel}, {"hardware", store.KindHardware}, {"engine", store.KindEngine},
	{"quant", store.KindQuantization}, {"submitter", store.KindSubmitter},
}

// maxParam bounds a filter value: slugs are short.
const maxParam = 200

// readFilter reads the filters from the URL.
func readFilter(q url.Values) (store.RunFilter, error) {
	f := store.RunFilter{Model: q.Get("model"), Hardware: q.Get("hardware"), Engine: q.Get("engine"),
		EngineVersion: q.Get("version"), Quantization: q.Get("quant"), Submitter: q.Get("submitter")}
	for _, v := range []string{f.Model, f.Hardware, f.Engine, f.EngineVersion, f.Quantization, f.Submitter} {
		if len(v) > maxParam {
			return f, errBadRequest
		}
	}
	return f, nil
}

func filterValue(f store.RunFilter, param string) string {
	switch param {
	case "model":
		return f.Model
	case "hardware":
		return f.Hardware
	case "engine":
		return f.Engine
	case "quant":
		return f.Quantization
	case "submitter":
		return f.Submitter
	}
	return ""
}

// maxChoices bounds each filter's list of choices.
const maxChoices = 500

// filterForm builds the filter form of a page: every identity of each kind
// as a choice ("all" first), the current ones selected. The model choice
// offers base models (all their variants) before variants.
func (s *Server) filterForm(ctx context.Context, l *i18n.Localizer, action string, f store.RunFilter) (templates.FilterForm, error) {
	form := templates.FilterForm{Action: action, EngineVersion: f.EngineVersion, ClearHref: action}
	for _, p := range filterParams {
		kinds := []string{p.kind}
		if p.kind == store.KindModel {
			kinds = []string{store.KindModelBase, store.KindModel}
		}
		sel := templates.Select{Name: p.param, Label: l.T("browse.filter."+p.param, nil),
			Options: []templates.Option{{Value: "", Label: l.T("browse.filter.all", nil)}}}
		current := filterValue(f, p.param)
		for _, kind := range kinds {
			ids, err := s.store.Identities(ctx, kind, maxChoices)
			if err != nil {
				return form, err
			}
			for _, id := range ids {
				label := id.Name
				if kind == store.KindModelBase {
					label = l.T("browse.filter.all_variants", map[string]any{"Name": id.Name})
				}
				sel.Options = append(sel.Options, templates.Option{Value: id.Slug, Label: label, Selected: id.Slug == current})
			}
		}
		form.Selects = append(form.Selects, sel)
	}
	return form, nil
}

// link is a Link to href, or plain text when there is no slug.
func link(slug, name string, href func(string) string) templates.Link {
	if slug == "" {
		return templates.Link{Text: name}
	}
	return templates.Link{Href: href(slug), Text: name}
}

// itemHardware is the hardware a list item's run declared.
func itemHardware(it *store.RunItem) run.Hardware {
	return run.Hardware{Type: run.HardwareType(it.HardwareType), GPUName: it.GPUName, GPUCount: it.GPUCount,
		VRAMGB: it.VRAMGB, CPUName: it.CPUName}
}

// itemTitle names a list item's run as its report page does.
func itemTitle(l *i18n.Localizer, it *store.RunItem) string {
	return report.TitleOf(run.Model{ID: it.ModelID}, itemHardware(it), l)
}

// browseRun describes a run for a list, named as its report page names it.
func browseRun(l *i18n.Localizer, it *store.RunItem) templates.BrowseRun {
	hw := catalog.Hardware(itemHardware(it))
	model, _ := catalog.Model(it.ModelID)
	return templates.BrowseRun{
		ID: it.ID, Title: itemTitle(l, it), Href: paths.Run(it.ID),
		Hardware:      link(it.HardwareSlug, hw.Name, paths.Hardware),
		Engine:        link(it.EngineSlug, catalog.Engine(it.EngineName).Name, paths.Engine),
		Model:         link(it.ModelSlug, model.Name, paths.Model),
		Submitter:     link(it.SubmitterSlug, it.Submitter, paths.Submitter),
		EngineVersion: it.EngineVersion, Quantization: it.Quantization,
		Uploaded: it.UploadedAt.Format(time.DateOnly),
		Single:   report.FormatTPS(l, it.BestSingleTPS), Peak: report.FormatTPS(l, it.BestPeakTPS),
		Demo: it.Demo,
	}
}

func browseRuns(l *i18n.Localizer, items []store.RunItem) []templates.BrowseRun {
	out := make([]templates.BrowseRun, len(items))
	for i := range items {
		out[i] = browseRun(l, &items[i])
	}
	return out
}
