package browse

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/compare"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// compareStore is what the compare area needs of the database.
type compareStore interface {
	CompareCandidates(ctx context.Context, id string, limit int) (sameModel, sameHardware []*run.Run, err error)
}

// ComparePage is GET /compare?runs=a,b[,c,d]: the runs' grids side by
// side, the ratio grids and the overlaid charts. A bad list is refused
// with a page that says what is wrong with it.
func (s *Handlers) ComparePage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	ids := splitIDs(r.URL.Query().Get("runs"))
	switch {
	case len(ids) < 2:
		return s.refuse(w, r, http.StatusBadRequest, l.T("compare.error.too_few", nil))
	case len(ids) > compare.MaxRuns:
		return s.refuse(w, r, http.StatusBadRequest, l.T("compare.error.too_many",
			map[string]any{"Max": compare.MaxRuns, "Count": len(ids)}))
	}
	seen := map[string]bool{}
	runs := make([]*run.Run, 0, len(ids))
	for _, id := range ids {
		if seen[id] {
			return s.refuse(w, r, http.StatusBadRequest, l.T("compare.error.duplicate", map[string]any{"ID": id}))
		}
		seen[id] = true
		var rn *run.Run
		err := store.ErrNotFound
		if kit.ValidID(id) {
			rn, err = s.store.GetRun(ctx, id)
		}
		if errors.Is(err, store.ErrNotFound) {
			return s.refuse(w, r, http.StatusNotFound, l.T("compare.error.unknown", map[string]any{"ID": id}))
		}
		if err != nil {
			return err
		}
		runs = append(runs, rn)
	}
	if strings.Join(ids, ",") != r.URL.Query().Get("runs") {
		kit.KeptIf(w, r, false) // "a, b" and "a,,b": the page of a,b under as many addresses as spaces
	}
	v := compare.Build(l, runs)
	titles := make([]string, len(v.Runs))
	for i, it := range v.Runs {
		titles[i] = it.Title
	}
	b := s.Base(r, l.T("compare.title", nil),
		l.T("compare.description", map[string]any{"Titles": strings.Join(titles, l.T("common.list_sep", nil))}))
	return kit.Render(w, r, http.StatusOK, templates.ComparePage(b, v))
}

// splitIDs reads "a,b, c" into its non-empty ids, in order.
func splitIDs(s string) []string {
	var ids []string
	for _, id := range strings.Split(s, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// refuse answers with the error page and a message that names the problem.
func (s *Handlers) refuse(w http.ResponseWriter, r *http.Request, status int, message string) error {
	w.Header().Set("Cache-Control", "no-store")
	b := s.Base(r, templates.ErrorTitle(r.Context(), status), "")
	return kit.Render(w, r, status, templates.ErrorPage(b, status, message))
}

// compareCandidates is how many runs of each kind the picker offers.
const compareCandidates = 20

// CompareWithPage is GET /compare/with/{id}: runs of the same model and on
// the same hardware, each a link to its comparison with this run.
func (s *Handlers) CompareWithPage(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !kit.ValidID(id) {
		return kit.ErrNotFound
	}
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	this, err := s.store.GetRun(ctx, id)
	if err != nil {
		return err
	}
	sameModel, sameHardware, err := s.store.CompareCandidates(ctx, id, compareCandidates)
	if err != nil {
		return err
	}
	list := func(runs []*run.Run) []templates.CompareCandidate {
		out := make([]templates.CompareCandidate, 0, len(runs))
		for _, o := range runs {
			out = append(out, templates.CompareCandidate{RunListItem: templates.NewRunListItem(o, l),
				Demo: o.Demo, URL: templates.CompareURL(id, o.ID)})
		}
		return out
	}
	item := templates.NewRunListItem(this, l)
	b := s.Base(r, l.T("compare.with.title", nil), l.T("compare.with.heading", map[string]any{"Title": item.Title}))
	return kit.Render(w, r, http.StatusOK, templates.CompareWithPage(b, item, list(sameModel), list(sameHardware)))
}
