package web

import "testing"

// TestLRUBoundedInBytes: the cache never holds more than its bound, drops
// the least recently used first, replaces an entry put again, and counts
// bytes added later (grow) against the bound too.
func TestLRUBoundedInBytes(t *testing.T) {
	c := newLRU(100, func(v []byte) int { return len(v) })
	c.put("a", make([]byte, 40))
	c.put("b", make([]byte, 40))
	c.get("a") // b is now the least recently used
	c.put("c", make([]byte, 40))
	if _, ok := c.get("b"); ok {
		t.Error("b survived; it was the least recently used")
	}
	if _, ok := c.get("a"); !ok {
		t.Error("a was dropped although used recently")
	}
	c.put("a", make([]byte, 10)) // replaced, not counted twice
	if n, size := c.stats(); n != 2 || size != 50 {
		t.Errorf("after replacing a: %d entries, %d bytes; want 2, 50", n, size)
	}
	c.grow("a", 60) // now 110 > 100: c goes (least recently used)
	if n, size := c.stats(); n != 1 || size != 70 {
		t.Errorf("after growing a: %d entries, %d bytes; want 1, 70", n, size)
	}
	c.put("huge", make([]byte, 101))
	if _, ok := c.get("huge"); ok {
		t.Error("an entry larger than the whole cache was kept")
	}
}
