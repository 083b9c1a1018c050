package accounts

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"
	"golang.org/x/sync/semaphore"
)

// Every argon2id computation holds one of hashSlots, one per core: each
// takes 64 MiB (argonMemory) for its whole run, so the slots bound the
// memory that hashing may take, and more at once than there are cores
// would not finish any sooner. Without them, 50 simultaneous sign-ins
// asked for 3 GiB.
var (
	slotCount = int64(runtime.GOMAXPROCS(0))
	hashSlots = semaphore.NewWeighted(slotCount)
)

// HashWait is how long a password check waits for a slot before it gives
// up with ErrBusy: long enough to ride out a burst of sign-ins, short
// enough that a flood is refused rather than queued.
const HashWait = time.Second

// ErrBusy is returned when every hashing slot stayed taken for HashWait.
// The password was not checked; the web answers 503 with Retry-After.
var ErrBusy = errors.New("password hashing busy")

// HashStats are this process's password hashing figures since it started.
type HashStats struct {
	// Computed counts the argon2id computations run; Busy those refused
	// with ErrBusy.
	Computed, Busy uint64
	// Running is how many run now, Peak the most that ever ran at once,
	// and Slots the bound on both.
	Running, Peak, Slots int64
}

var stats struct {
	computed, busy atomic.Uint64
	running, peak  atomic.Int64
}

// Stats returns the password hashing figures, for metrics and tests.
func Stats() HashStats {
	return HashStats{Computed: stats.computed.Load(), Busy: stats.busy.Load(), Running: stats.running.Load(),
		Peak: stats.peak.Load(), Slots: slotCount}
}

// idKey is argon2.IDKey run in one of hashSlots, waiting at most HashWait
// (or until ctx ends) for one.
func idKey(ctx context.Context, password, salt []byte, passes, memory uint32, threads uint8, keyLen uint32) ([]byte, error) {
	wait, cancel := context.WithTimeout(ctx, HashWait)
	defer cancel()
	if err := hashSlots.Acquire(wait, 1); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		stats.busy.Add(1)
		return nil, ErrBusy
	}
	defer hashSlots.Release(1)
	n := stats.running.Add(1)
	defer stats.running.Add(-1)
	for p := stats.peak.Load(); n > p && !stats.peak.CompareAndSwap(p, n); p = stats.peak.Load() {
	}
	stats.computed.Add(1)
	return argon2.IDKey(password, salt, passes, memory, threads, keyLen), nil
}
