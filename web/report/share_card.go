package report

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/share"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// RunCard is GET /runs/{id}/card.png, the link-preview image. Drawing one
// takes tens of milliseconds and unfurling bots ask for it again and
// again, so each rendering (run revision × language) is drawn once and
// kept in the page cache; browsers and proxies may keep it a day and then
// revalidate with the ETag (the page cache keeps each drawing).
func (s *Handlers) RunCard(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	if _, done, err := s.revalidate(w, r, id, "card.png"); err != nil || done {
		return err
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	rn, err := s.store.GetRun(r.Context(), id)
	if err != nil {
		return err
	}
	png, err := share.Card(rn, i18n.FromContext(r.Context()))
	if err != nil {
		return err
	}
	return kit.WriteBody(w, "image/png", png)
}
