package browse

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// entityRuns is how many of its newest runs an entity page lists.
const entityRuns = 20

// EntityPage serves /hardware/{slug}, /engines/{slug}, /models/{slug} (a
// base model or a variant) and /submitters/{handle}: the identity's best
// results at common grid points, its newest runs, and links to what it was
// seen with.
func (s *Handlers) EntityPage(kind string) kit.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		slug := chi.URLParam(r, "slug")
		if len(slug) > maxParam {
			return kit.ErrNotFound
		}
		e, err := s.entity(r.Context(), kind, slug)
		if err != nil {
			return err // ErrNotFound → 404
		}
		p := browse.NewEntityPage(i18n.FromContext(r.Context()), e)
		w.Header().Set("Cache-Control", "no-cache")
		return kit.Render(w, r, http.StatusOK, templates.Entity(s.Base(r, p.Name, p.Description), p))
	}
}

// entity loads what an entity page shows of the identity of kind and slug.
func (s *Handlers) entity(ctx context.Context, kind, slug string) (browse.EntityData, error) {
	e := browse.EntityData{Kind: kind, Slug: slug}
	var err error
	e.Name, err = s.store.IdentityName(ctx, kind, slug)
	if kind == store.KindModel {
		// A base model's page lists its variants; a variant slug works too.
		if base, berr := s.store.IdentityName(ctx, store.KindModelBase, slug); berr == nil {
			e.Kind, e.Name, err = store.KindModelBase, base, nil
		}
	}
	if err != nil {
		return e, err
	}
	if e.Runs, _, err = s.store.ListRuns(ctx, browse.EntityFilter(e.Kind, slug), store.SortNewest, nil, entityRuns); err != nil {
		return e, err
	}
	if e.Bests, err = s.store.BestAt(ctx, e.Kind, slug, browse.BestPoints); err != nil {
		return e, err
	}
	if e.Seen, err = s.seenWith(ctx, e.Kind, slug, e.Runs); err != nil {
		return e, err
	}
	if e.Kind == store.KindEngine {
		if e.Versions, err = s.store.EngineVersions(ctx, slug); err != nil {
			return e, err
		}
	}
	e.Histories, err = s.histories(ctx, i18n.FromContext(ctx), e.Kind, slug)
	return e, err
}

// searchLimit bounds the hits of a search.
const searchLimit = 50

// SearchPage is GET /search?q=: models, hardware and engines by name.
func (s *Handlers) SearchPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	q := r.URL.Query().Get("q")
	if len(q) > maxParam {
		return kit.ErrBadRequest
	}
	found, err := s.store.Search(ctx, q, searchLimit)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-cache")
	return kit.Render(w, r, http.StatusOK, templates.Search(s.Base(r, l.T("search.title", nil), l.T("search.label", nil)), browse.NewSearchPage(l, q, found)))
}
