package sweep

import (
	"math"
	"testing"
)

func TestBucket(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want int
	}{
		{0, 0}, {200, 0}, {511, 0}, {512, 0}, {513, 1024}, {1000, 1024}, {1024, 1024},
		{1536, 1024}, {1537, 2048}, {2048, 2048}, {3000, 2048}, {3100, 4096}, {12288, 8192},
		{16000, 16384}, {100000, 131072}, {1e9, 262144}, {-5, 0}, {math.NaN(), 0}, {math.Inf(1), 262144},
	} {
		if got := Bucket(tt.in); got != tt.want {
			t.Errorf("Bucket(%v) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestPlace(t *testing.T) {
	if c, m := Place(508.7); c != 0 || m != 509 {
		t.Errorf("Place(508.7) = %d, %d; want 0, 509", c, m)
	}
	if c, m := Place(2048); c != 2048 || m != 0 {
		t.Errorf("Place(2048) = %d, %d; want 2048, 0 (exact)", c, m)
	}
	if c, m := Place(math.Inf(1)); c != 262144 || m != math.MaxInt32 {
		t.Errorf("Place(+Inf) = %d, %d", c, m)
	}
}
