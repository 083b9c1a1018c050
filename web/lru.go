package web

import (
	"container/list"
	"sync"
)

// lru is a least-recently-used cache bounded in bytes: the page cache
// (pagecache.go) keeps every cached answer in one.
type lru[V any] struct {
	mu    sync.Mutex
	max   int
	size  int
	sizer func(V) int
	order *list.List // front: most recently used; values are *lruEntry[V]
	items map[string]*list.Element
}

type lruEntry[V any] struct {
	key  string
	val  V
	size int // as counted when put or grown, so eviction subtracts the same
}

func newLRU[V any](maxBytes int, sizer func(V) int) *lru[V] {
	return &lru[V]{max: maxBytes, sizer: sizer, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.use(c.items[key])
}

// getBytes is get with the key as bytes, which the map lookup reads
// without making a string of them.
func (c *lru[V]) getBytes(key []byte) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.use(c.items[string(key)])
}

// use returns e's value and makes it the most recently used; e is nil
// when the key is not kept. c.mu is held.
func (c *lru[V]) use(e *list.Element) (V, bool) {
	if e == nil {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry[V]).val, true
}

// put keeps val under key, replacing what was there, unless it is larger
// than the whole cache.
func (c *lru[V]) put(key string, val V) {
	n := c.sizer(val)
	if n > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.size -= e.Value.(*lruEntry[V]).size
		c.order.Remove(e)
	}
	c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val, size: n})
	c.size += n
	c.evict()
}

// grow counts n more bytes for key's entry when it still holds val (a
// representation added later, such as brotli).
func (c *lru[V]) grow(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		e.Value.(*lruEntry[V]).size += n
		c.size += n
		c.evict()
	}
}

// evict drops the least recently used entries until the cache fits.
func (c *lru[V]) evict() {
	for c.size > c.max && c.order.Len() > 0 {
		last := c.order.Back()
		old := last.Value.(*lruEntry[V])
		c.order.Remove(last)
		delete(c.items, old.key)
		c.size -= old.size
	}
}

// stats returns the entries and bytes held.
func (c *lru[V]) stats() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.size
}
