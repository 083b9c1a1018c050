// Package memo keeps pure functions' results by input, bounded: a report
// names one machine, one model and one badge text in several places, and
// a list page the same few on every row, each naming an expression or a
// font measurement worth doing once.
package memo

import "sync"

// Size bounds a Map: past it the map starts again empty, so inputs nobody
// asks for twice cannot fill memory.
const Size = 4096

// Map is a pure function's results by input; the zero value is empty and
// ready, and safe for concurrent use.
type Map[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

// Get is the result kept for k, if there is one.
func (c *Map[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

// Put keeps v as the result for k.
func (c *Map[K, V]) Put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= Size {
		c.m = make(map[K]V)
	}
	c.m[k] = v
}

// Len is how many results are kept.
func (c *Map[K, V]) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}
