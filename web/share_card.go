package web

import (
	"container/list"
	"net/http"
	"sync"

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
	png, _, err := share.Card(rn, i18n.FromContext(r.Context()), s.bundle.Localizer(i18n.English))
	if err != nil {
		return err
	}
	s.cards.put(etag, png)
	return writeBody(w, "image/png", png)
}

// cardCache is a least-recently-used cache of PNG cards, bounded in bytes.
// Keys are ETags, which name the run's revision: an entry is never stale.
type cardCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List // front: most recently used; values are *cardEntry
	items map[string]*list.Element
}

type cardEntry struct {
	key string
	png []byte
}

// cardCacheBytes holds about 250 cards of ~60 KB.
const cardCacheBytes = 16 << 20

func newCardCache(maxBytes int) *cardCache {
	return &cardCache{max: maxBytes, order: list.New(), items: map[string]*list.Element{}}
}

func (c *cardCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cardEntry).png, true
}

func (c *cardCache) put(key string, png []byte) {
	if len(png) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; ok {
		return
	}
	c.items[key] = c.order.PushFront(&cardEntry{key: key, png: png})
	c.size += len(png)
	for c.size > c.max {
		last := c.order.Back()
		old := last.Value.(*cardEntry)
		c.order.Remove(last)
		delete(c.items, old.key)
		c.size -= len(old.png)
	}
}
