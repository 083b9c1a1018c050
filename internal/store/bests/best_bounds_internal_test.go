package bests

import (
	"fmt"
	"runtime"
	"testing"
	"time"
)

var boundTime = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)

// boundOffers are 51 offers of one group, as an upload of a seed run
// makes: 17 points, three metrics.
func boundOffers(group int) []bestOffer {
	var out []bestOffer
	for p := range 17 {
		for _, m := range []string{"total_tps", "per_request_tps", "ttft_ms"} {
			k := bestKey{p * 1024, 1 << (p % 5), m, "valid", fmt.Sprintf("org/model-%d", group), "rtx-4090", "vllm",
				"fp8", false, ""}
			out = append(out, bestOffer{k, bestRow{sortValue: -float64(p), runID: "r", uploaded: boundTime}})
		}
	}
	return out
}

// TestBoundsStayWithinBytes learns from uploads to many more groups than
// the bound holds: the estimate stays within it, the heap the bounds hold
// within it too, and the group used last stays.
func TestBoundsStayWithinBytes(t *testing.T) {
	const maxBytes = 1 << 20
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b := newBestBounds(maxBytes)
	b.hint(1)
	for g := range 20000 {
		b.learn(1, 0, boundOffers(g))
		if _, bytes := b.size(); bytes > maxBytes {
			t.Fatalf("after %d groups the bounds take %d bytes, more than %d", g+1, bytes, maxBytes)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	groups, bytes := b.size()
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d groups kept, estimated at %d bytes, holding %d bytes of heap", groups, bytes, heap)
	if heap > maxBytes {
		t.Errorf("the bounds hold %d bytes of heap (%d groups, estimated %d), more than %d", heap, groups, bytes, maxBytes)
	}
	if groups < 100 {
		t.Errorf("%d groups kept within %d bytes; the estimate is far too high", groups, maxBytes)
	}
	last := boundOffers(19999)
	last[0].v.sortValue = 1 // worse than the bound learned
	if skip := b.cannotWin(1, 0, last); !skip[0] || skip[1] {
		t.Errorf("the group used last lost its bounds: marks %v", skip[:2])
	}
	if skip := b.cannotWin(1, 0, boundOffers(0)); skip[0] {
		t.Error("the group used first kept its bounds though 20,000 came after it")
	}
	runtime.KeepAlive(b)
}

// TestBoundsMarkByRank wants an offer marked only when it ranks strictly
// after the bound: a worse sort value, or the same one uploaded later; the
// same sort value uploaded at the same time or earlier, or a better one,
// may still win.
func TestBoundsMarkByRank(t *testing.T) {
	b := newBestBounds(defaultBoundBytes)
	b.hint(3)
	learned := boundOffers(0)[:1]
	b.learn(3, 0, learned)
	for _, tc := range []struct {
		sortValue float64
		uploaded  time.Duration
		want      bool
	}{{1, 0, true}, {0, time.Microsecond, true}, {0, 0, false}, {0, -time.Hour, false}, {-1, time.Hour, false}} {
		offer := learned[0]
		offer.v.sortValue += tc.sortValue
		offer.v.uploaded = offer.v.uploaded.Add(tc.uploaded)
		if got := b.cannotWin(3, 0, []bestOffer{offer})[0]; got != tc.want {
			t.Errorf("sort value %+v, uploaded %v later: marked %v, want %v", tc.sortValue, tc.uploaded, got, tc.want)
		}
		if got := b.cannotWin(4, 0, []bestOffer{offer})[0]; got {
			t.Errorf("sort value %+v, uploaded %v later: marked under another epoch", tc.sortValue, tc.uploaded)
		}
	}
}

// TestBoundsForgetAndEpochChanges: bounds mark offers only under the
// epoch they were learned under, and are gone after forget (a lost
// connection, a failed upload) or after an upload reads any other epoch,
// an older one included (a restored or promoted copy of the database).
func TestBoundsForgetAndEpochChanges(t *testing.T) {
	worse := func() []bestOffer {
		o := boundOffers(0)[:1]
		o[0].v.sortValue++
		return o
	}
	learned := func() *bestBounds {
		b := newBestBounds(defaultBoundBytes)
		b.hint(7)
		b.learn(7, 0, boundOffers(0)[:1])
		if !b.cannotWin(7, 0, worse())[0] {
			t.Fatal("a worse offer under the bounds' epoch is not marked: the test proves nothing")
		}
		return b
	}
	b := learned()
	b.forget()
	if b.cannotWin(7, 0, worse())[0] {
		t.Error("marked after forget")
	}
	b.hint(7)
	if b.cannotWin(7, 0, worse())[0] {
		t.Error("marked after forget and a read of the same epoch")
	}
	for _, epoch := range []int64{6, 8} {
		b := learned()
		b.hint(epoch)
		b.hint(7)
		if b.cannotWin(7, 0, worse())[0] {
			t.Errorf("marked under epoch 7 after an upload read epoch %d", epoch)
		}
	}
}
