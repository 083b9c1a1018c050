package web

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/share"
)

// runCard is GET /runs/{id}/card.png, the link-preview image. Drawing one
// takes tens of milliseconds and unfurling bots ask for it again and
// again, so each rendering (run revision × language × build) is drawn once
// and kept in memory; browsers and proxies may keep it a day and then
// revalidate with the ETag.
func (s *Server) runCard(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	etag, done, err := s.revalidate(w, r, id, "card.png")
	if err != nil || done {
		return err
	}
	w.Header().Set("Cache-Control", "public, max-age=86400")
	if png, ok := s.cards.get(etag); ok {
		return writeBody(w, "image/png", png)
	}
	rn, err := s.store.GetRun(r.Context(), id)
	if err != nil {
		return err
	}
	png, err := share.Card(rn, i18n.FromContext(r.Context()))
	if err != nil {
		return err
	}
	s.cards.put(etag, png)
	return writeBody(w, "image/png", png)
}

// cardCache keeps link-preview PNGs (see lru).
type cardCache = lru[[]byte]

// cardCacheBytes holds about 250 cards of ~60 KB.
const cardCacheBytes = 16 << 20

func newCardCache(maxBytes int) *cardCache {
	return newLRU(maxBytes, func(png []byte) int { return len(png) })
}
