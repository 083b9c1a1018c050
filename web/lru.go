package web

import (
	"container/list"
	"sync"
)

// lru is a least-recently-used cache bounded in bytes. The web layer keeps
// rendered report pages and link-preview cards in one; their keys are ETags,
// which name the run's revision, the language and the build, so an entry is
// never stale, only evicted.
type lru[V any] struct {
	mu    sync.Mutex
	max   int
	size  int
	sizer func(V) int
	order *list.List // front: most recently used; values are *lruEntry[V]
	items map[string]*list.Element
}

type lruEntry[V any] struct {
	key string
	val V
}

func newLRU[V any](maxBytes int, sizer func(V) int) *lru[V] {
	return &lru[V]{max: maxBytes, sizer: sizer, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[V]).val, true
}

// put keeps val under key unless it is larger than the whole cache.
func (c *lru[V]) put(key string, val V) {
	n := c.sizer(val)
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; ok {
		return
	}
	c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val})
	c.size += n
	for c.size > c.max {
		last := c.order.Back()
		old := last.Value.(*lruEntry[V])
		c.order.Remove(last)
		delete(c.items, old.key)
		c.size -= c.sizer(old.val)
	}
}
