package site

import (
	"container/list"
	"sync"
)

// lru is a least-recently-used cache bounded in bytes: the page cache
// (pagecache.go) keeps every cached answer in one.
//
// Every warm hit reads it, from every core at once, so a lookup takes the
// lock shared and moves its entry to the front only when the entry is not
// among those used lately (recent): a page read over and over stays near
// the front without a writer's lock per read. The order of the recently
// used among themselves is then approximate; what leaves first is still
// what was used least recently.
type lru[V any] struct {
	mu    sync.RWMutex
	max   int
	size  int
	sizer func(V) int
	order *list.List // front: most recently used; values are *lruEntry[V]
	items map[string]*list.Element
	clock uint64 // counts moves to the front (puts included)
}

type lruEntry[V any] struct {
	key  string
	val  V
	size int    // as counted when put or grown, so eviction subtracts the same
	used uint64 // the clock when it last moved to the front
}

func newLRU[V any](maxBytes int, sizer func(V) int) *lru[V] {
	return &lru[V]{max: maxBytes, sizer: sizer, order: list.New(), items: map[string]*list.Element{}}
}

func (c *lru[V]) get(key string) (V, bool) {
	c.mu.RLock()
	e := c.items[key]
	val, stale := c.read(e)
	c.mu.RUnlock()
	if stale {
		c.promote(e)
	}
	return val, e != nil
}

// getBytes is get with the key as bytes, which the map lookup reads
// without making a string of them.
func (c *lru[V]) getBytes(key []byte) (V, bool) {
	c.mu.RLock()
	e := c.items[string(key)]
	val, stale := c.read(e)
	c.mu.RUnlock()
	if stale {
		c.promote(e)
	}
	return val, e != nil
}

// read returns e's value, and whether e should move to the front: it is
// not there, and has not moved there within the last quarter of the
// entries' moves, so it may be past the front quarter of the order. e is
// nil when the key is not kept. c.mu is held, shared.
func (c *lru[V]) read(e *list.Element) (val V, stale bool) {
	if e == nil {
		return val, false
	}
	ent := e.Value.(*lruEntry[V])
	return ent.val, c.order.Front() != e && c.clock-ent.used >= uint64(c.order.Len()/4)
}

// promote moves e to the front, unless it has left the cache meanwhile.
func (c *lru[V]) promote(e *list.Element) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items[e.Value.(*lruEntry[V]).key] == e {
		c.clock++
		e.Value.(*lruEntry[V]).used = c.clock
		c.order.MoveToFront(e)
	}
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
	c.clock++
	c.items[key] = c.order.PushFront(&lruEntry[V]{key: key, val: val, size: n, used: c.clock})
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
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.order.Len(), c.size
}
