package ingest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/speedmatrix/speedmatrix/internal/problem"
)

// TestReadLimitedCopies reads documents of several sizes one after another
// through the pooled buffer and wants each one's bytes back whole and
// unchanged by the reads after it (none shares the buffer), an empty body
// as an empty, non-nil slice, and one byte past MaxBodyBytes refused.
func TestReadLimitedCopies(t *testing.T) {
	sizes := []int{0, 1, 511, 14 << 10, maxPooledRead + 1, 3, MaxBodyBytes}
	var got, want [][]byte
	for i, n := range sizes {
		doc := bytes.Repeat([]byte{byte('a' + i)}, n)
		data, err := readLimited(bytes.NewReader(doc))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if data == nil {
			t.Fatalf("%d bytes: nil", n)
		}
		got, want = append(got, data), append(want, doc)
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Errorf("read %d (%d bytes) came back as %d bytes %.20q…", i, sizes[i], len(got[i]), got[i])
		}
	}
	_, err := readLimited(strings.NewReader(strings.Repeat("x", MaxBodyBytes+1)))
	if pe, ok := problem.As(err); !ok || pe.Kind != problem.TooLarge {
		t.Errorf("one byte too many: %v, want a TooLarge problem", err)
	}
}
