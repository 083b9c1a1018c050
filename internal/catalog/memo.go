package catalog

import "sync"

// memoSize bounds a memo: past it the memo starts again empty, so names
// nobody reads twice cannot fill memory.
const memoSize = 4096

// memo keeps a pure function's results by input. A report names one
// machine in several places, and a list page the same few machines on
// every row; each naming runs the hardware expressions.
type memo[K comparable, V any] struct {
	mu sync.RWMutex
	m  map[K]V
}

func (c *memo[K, V]) get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= memoSize {
		c.m = make(map[K]V)
	}
	c.m[k] = v
}
