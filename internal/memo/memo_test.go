package memo

import "testing"

// A Map never holds more than Size results and answers what was put last.
func TestBounded(t *testing.T) {
	var m Map[int, int]
	if _, ok := m.Get(1); ok {
		t.Fatal("an empty map has a result")
	}
	for i := range Size + 10 {
		m.Put(i, i*2)
	}
	if n := m.Len(); n > Size || n == 0 {
		t.Errorf("the map holds %d results, bound %d", n, Size)
	}
	if v, ok := m.Get(Size + 5); !ok || v != 2*(Size+5) {
		t.Errorf("the newest result: %d %v", v, ok)
	}
}
