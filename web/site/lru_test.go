package site

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

// TestLRUKeepsWhatIsRead: a page read between every put stays, whether
// or not each read moves it to the front, while the pages put before it
// and not read again leave first.
func TestLRUKeepsWhatIsRead(t *testing.T) {
	c := newLRU(100, func(v []byte) int { return len(v) })
	for i := range 100 {
		c.put(string(rune('a'+i%26))+string(rune('0'+i/26)), make([]byte, 1))
	}
	c.put("hot", make([]byte, 1)) // a0 leaves
	for i := range 1000 {
		if _, ok := c.get("hot"); !ok {
			t.Fatalf("the page read at every step left after %d puts", i)
		}
		c.put("new"+string(rune(i)), make([]byte, 1))
	}
	if n, size := c.stats(); n != 100 || size != 100 {
		t.Errorf("%d entries, %d bytes; want 100, 100", n, size)
	}
	if _, ok := c.get("b0"); ok {
		t.Error("b0, put early and never read, is still kept")
	}
}
