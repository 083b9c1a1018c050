package browse

import (
	"context"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/planview"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// homeRuns is how many recent runs the home page lists; homeTeaser how many
// leaderboard rows it shows.
const (
	homeRuns   = 10
	homeTeaser = 5
)

// Home is GET /: what the site is, search, the planner's GPU picker, the latest runs, the top of the
// leaderboard at 0 × 1, the way to upload.
func (s *Handlers) Home(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	recent, _, err := s.store.ListRuns(ctx, store.RunFilter{}, store.SortNewest, nil, homeRuns)
	if err != nil {
		return err
	}
	q := store.LeaderQuery{Context: 0, Concurrency: 1, Metric: store.MetricTotal, Limit: homeTeaser}
	top, err := s.store.Leaderboard(ctx, q)
	if err != nil {
		return err
	}
	d := browse.Home(l, recent, q, top)
	picker, err := s.gpuPicker(ctx)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-cache")
	return kit.Render(w, r, http.StatusOK, templates.HomePage(s.Base(r, l.T("home.title", nil), l.T("home.pitch", nil)), d, picker))
}

// gpuPicker is the planner's way in from home: the hardware measured
// here, then the calculator's GPUs nobody measured yet.
func (s *Handlers) gpuPicker(ctx context.Context) (planview.Picker, error) {
	tables, err := calculator.Data()
	if err != nil {
		return planview.Picker{}, err
	}
	lists, err := s.store.IdentityLists(ctx, []string{store.KindHardware}, maxChoices)
	if err != nil {
		return planview.Picker{}, err
	}
	return planview.NewPicker(lists[store.KindHardware], tables), nil
}
