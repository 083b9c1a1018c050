package report

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/formats/export"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// RunJSON is GET /runs/{id}.json and GET /api/v1/runs/{id}: the run as
// speedmatrix-run/1, the document every export and re-import shares.
func (s *Handlers) RunJSON(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if !kit.ValidID(id) {
		return kit.ErrNotFound
	}
	run, err := s.store.GetRun(r.Context(), id)
	if err != nil {
		return s.GoneOr(r, id, err) // 410 for a run its submitter deleted
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	return kit.WriteJSON(w, http.StatusOK, export.New(run, s.Origin(r)))
}
