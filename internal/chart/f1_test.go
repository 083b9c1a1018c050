package chart

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// appendF1 writes what strconv writes, on coordinates, ties, tiny
// negatives and numbers too large for its shortcut.
func TestAppendF1IsStrconv(t *testing.T) {
	vals := []float64{0, -0.0, 0.05, 0.15, 0.25, -0.04, -0.05, 107, 230.25, 1e20, -1e20, 1 << 52, 0.95, 9.95, 99.95}
	r := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		vals = append(vals, r.Float64()*600-100, float64(r.IntN(100000))/100, float64(r.IntN(1000))/20)
	}
	for _, v := range vals {
		want := strconv.FormatFloat(v, 'f', 1, 64)
		if got := string(appendF1(nil, v)); got != want {
			t.Fatalf("appendF1(%v) = %s, strconv %s", v, got, want)
		}
	}
	if got := string(appendF1([]byte("x"), math.Pi)); got != "x3.1" {
		t.Errorf("appendF1 onto x: %s", got)
	}
}
