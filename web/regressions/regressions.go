package regressions

import (
	"net/http"
	"net/url"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/regressview"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// maxParam bounds a filter value: slugs are short.
const maxParam = 200

// maxChoices bounds each filter's list of choices, as the run list's.
const maxChoices = 500

// badParam refuses a query parameter's value, naming the parameter.
func badParam(name string) error {
	return &kit.HTTPError{Status: http.StatusBadRequest, Key: "error.bad_param", Data: map[string]any{"Name": name}}
}

// readQuery reads the filters: engine and hardware slugs, and, when
// withKind (the API), kind ("regression" or "speedup").
func readQuery(qv url.Values, withKind bool) (store.VersionChangeQuery, error) {
	q := store.VersionChangeQuery{Engine: qv.Get("engine"), Hardware: qv.Get("hardware")}
	for name, v := range map[string]string{"engine": q.Engine, "hardware": q.Hardware} {
		if len(v) > maxParam {
			return q, badParam(name)
		}
	}
	if !withKind {
		return q, nil
	}
	switch k := regress.Kind(qv.Get("kind")); k {
	case "", regress.Regression, regress.Speedup:
		q.Kind = k
	default:
		return q, badParam("kind")
	}
	return q, nil
}

// Page is GET /regressions: the changes between consecutive engine
// versions, newest first, filtered by engine and hardware.
func (s *Handlers) Page(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	q, err := readQuery(r.URL.Query(), false)
	if err != nil {
		return err
	}
	entries, err := s.store.VersionChanges(ctx, q)
	if err != nil {
		return err
	}
	lists, err := s.store.IdentityLists(ctx, []string{store.KindEngine, store.KindHardware}, maxChoices)
	if err != nil {
		return err
	}
	c := regressview.Choices{Engines: lists[store.KindEngine], Hardwares: lists[store.KindHardware]}
	p := regressview.NewPage(l, s.en, s.Origin(r), q.Engine, q.Hardware, c, entries)
	// A page for a made-up filter value is answered, not kept: the cache
	// keeps the pages of the filters the form offers.
	kit.KeptIf(w, r, known(c.Engines, q.Engine) && known(c.Hardwares, q.Hardware))
	return kit.Render(w, r, http.StatusOK, templates.RegressionsPage(s.Base(r, p.Title, p.Sub), p))
}

// known reports whether slug is empty (any) or one of ids.
func known(ids []catalog.Identity, slug string) bool {
	return slug == "" || slices.ContainsFunc(ids, func(id catalog.Identity) bool { return id.Slug == slug })
}

// Feed is GET /regressions.atom: the changes as an Atom feed, of one
// engine with ?engine=. Its Last-Modified is when the newest change was
// seen (the first entry: the list is newest first).
func (s *Handlers) Feed(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	q, err := readQuery(url.Values{"engine": {r.URL.Query().Get("engine")}}, false)
	if err != nil {
		return err
	}
	entries, err := s.store.VersionChanges(ctx, q)
	if err != nil {
		return err
	}
	body, err := regressview.Feed(l, s.en, s.Origin(r), q.Engine, entries, s.Now())
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		w.Header().Set("Last-Modified", entries[0].SeenAt.UTC().Format(http.TimeFormat))
	}
	// An engine's feed is kept when it has entries: a made-up engine's
	// empty feed is answered, not kept.
	kit.KeptIf(w, r, q.Engine == "" || len(entries) > 0)
	w.Header().Set("Cache-Control", "no-cache")
	return kit.WriteBody(w, "application/atom+xml; charset=utf-8", body)
}

// apiChanges is GET /api/v1/regressions' answer.
type apiChanges struct {
	Changes []regressview.APIChange `json:"changes"`
}

// API is GET /api/v1/regressions: the changes as JSON, filtered by
// engine, hardware and kind.
func (s *Handlers) API(w http.ResponseWriter, r *http.Request) error {
	q, err := readQuery(r.URL.Query(), true)
	if err != nil {
		return err
	}
	entries, err := s.store.VersionChanges(r.Context(), q)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-cache")
	return kit.WriteJSON(w, http.StatusOK, apiChanges{Changes: regressview.API(s.en, s.Origin(r), entries)})
}
