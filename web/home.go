package web

import (
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/templates"
)

// homeRuns is how many recent runs the home page lists.
const homeRuns = 10

// home is GET /: what the site is, the latest runs, the way to upload.
func (s *Server) home(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	l := i18n.FromContext(ctx)
	recent, err := s.store.ListRecent(ctx, homeRuns)
	if err != nil {
		return err
	}
	items := make([]templates.RunListItem, 0, len(recent))
	for _, sum := range recent {
		run, err := s.store.GetRun(ctx, sum.ID)
		if err != nil {
			return err
		}
		items = append(items, templates.NewRunListItem(run, l))
	}
	w.Header().Set("Cache-Control", "no-cache")
	return render(w, r, http.StatusOK, templates.HomePage(s.base(r, l.T("home.title", nil), l.T("home.pitch", nil)), items))
}
