package web

import (
	"net/http"
	"net/url"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
)

// commonPoints are the grid points an entity page gives its best result at.
var commonPoints = []store.GridPoint{{Context: 0, Concurrency: 1}, {Context: 0, Concurrency: 8}, {Context: 0, Concurrency: 32},
	{Context: 32768, Concurrency: 1}, {Context: 32768, Concurrency: 8}, {Context: 131072, Concurrency: 1}}

// entityRuns is how many of its newest runs an entity page lists.
const entityRuns = 20

// entityParam is each kind's filter parameter in /runs and /leaderboard.
var entityParam = map[string]string{store.KindHardware: "hardware", store.KindEngine: "engine",
	store.KindModel: "model", store.KindModelBase: "model", store.KindSubmitter: "submitter"}

// entityPage serves /hardware/{slug}, /engines/{slug}, /models/{slug} (a
// base model or a variant) and /submitters/{handle}: the identity's best
// results at common grid points, its newest runs, and links to what it was
// seen with.
func (s *Server) entityPage(kind string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		l := i18n.FromContext(ctx)
		slug := chi.URLParam(r, "slug")
		if len(slug) > maxParam {
			return errNotFound
		}
		kind := kind
		name, err := s.store.IdentityName(ctx, kind, slug)
		if kind == store.KindModel {
			// A base model's page lists its variants; a variant slug works too.
			if base, berr := s.store.IdentityName(ctx, store.KindModelBase, slug); berr == nil {
				kind, name, err = store.KindModelBase, base, nil
			}
		}
		if err != nil {
			return err // ErrNotFound → 404
		}
		p := templates.EntityPage{Kind: l.T("entity.kind."+kind, nil), Name: name}
		param := entityParam[kind]
		f := store.RunFilter{}
		switch param {
		case "hardware":
			f.Hardware = slug
		case "engine":
			f.Engine = slug
		case "model":
			f.Model = slug
		case "submitter":
			f.Submitter = slug
		}
		items, more, err := s.store.ListRuns(ctx, f, store.SortNewest, nil, entityRuns)
		if err != nil {
			return err
		}
		p.Runs = browseRuns(l, items)
		_ = more
		p.AllRunsHref = "/runs?" + url.Values{param: {slug}}.Encode()
		p.LeaderboardHref = "/leaderboard?" + url.Values{param: {slug}}.Encode()
		bests, err := s.store.BestAt(ctx, kind, slug, commonPoints)
		if err != nil {
			return err
		}
		for _, pt := range commonPoints {
			b, ok := bests[pt]
			if !ok {
				continue
			}
			p.Bests = append(p.Bests, templates.Best{
				Cell:     l.T("entity.cell_label", map[string]any{"Context": report.ContextLabel(pt.Context), "Concurrency": l.Int(int64(pt.Concurrency))}),
				Value:    formatMetric(l, store.MetricTotal, b.Value),
				Href:     paths.RunCell(b.RunID, pt.Context, pt.Concurrency),
				Model:    link(b.ModelSlug, b.ModelName, paths.Model),
				Hardware: link(b.HardwareSlug, b.HardwareName, paths.Hardware),
				Engine:   link(b.EngineSlug, b.EngineName, paths.Engine),
				Demo:     b.Demo,
			})
		}
		if p.Groups, err = s.entityLinks(ctx, l, kind, slug, items); err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-cache")
		return render(w, r, http.StatusOK, templates.Entity(s.base(r, name, p.Kind+l.T("common.dot_sep", nil)+name), p))
	}
}

// searchLimit bounds the hits of a search.
const searchLimit = 50

// searchPage is GET /search?q=: models, hardware and engines by name.
func (s *Server) searchPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	q := r.URL.Query().Get("q")
	if len(q) > maxParam {
		return errBadRequest
	}
	found, err := s.store.Search(ctx, q, searchLimit)
	if err != nil {
		return err
	}
	p := templates.SearchPage{Query: q}
	index := map[string]int{}
	for _, f := range found {
		i, ok := index[f.Kind]
		if !ok {
			i = len(p.Hits)
			index[f.Kind] = i
			p.Hits = append(p.Hits, templates.LinkGroup{Label: l.T("search.kind."+f.Kind, nil)})
		}
		href := paths.Model
		switch f.Kind {
		case store.KindHardware:
			href = paths.Hardware
		case store.KindEngine:
			href = paths.Engine
		}
		p.Hits[i].Links = append(p.Hits[i].Links, templates.Link{Href: href(f.Slug), Text: f.Name})
	}
	w.Header().Set("Cache-Control", "no-cache")
	return render(w, r, http.StatusOK, templates.Search(s.base(r, l.T("search.title", nil), ""), p))
}
