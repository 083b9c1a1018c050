package bests

import (
	"container/list"
	"strconv"
	"strings"
	"sync"
)

// bestBounds is what a Bests handle knows of the stored bests, from its own
// committed uploads: per table of bests and group (a bestKey without its
// point), per point and metric, a sort value and upload time the stored
// best is known to be at least as good as, in the tables' order (sort
// value, then upload time, then id: bestRow.better). An upload marks the
// offers that are strictly worse in sort value, or equal in it and
// uploaded later (a later upload of the same numbers never wins), and
// the offer statement leaves those out before it probes the
// table (offer_run_best_cells.sql), while the database's best_epoch still
// equals the epoch the bounds were learned under: most offers lose, and a
// probe of the primary key plus visits of the heap was most of an
// upload's cost in the database.
//
// A bound stays true while the epoch does: a best only gets better while
// uploads hold bestLock shared, and whatever can make one worse bumps
// best_epoch (LockBest; migration 0024's triggers). Bounds are learned
// only after a commit, so a rolled-back upload teaches nothing; and only
// under the epoch read before the upload took bestLock, which is at most
// the one it offered under: were they different, a rebuild committed in
// between, that epoch never comes back, and the bounds are never used.
//
// The groups are kept in least-recently-used order within maxBytes, an
// estimate of what the maps take.
type bestBounds struct {
	mu       sync.Mutex
	epoch    int64
	known    bool // epoch was read from the database
	groups   map[string]*list.Element
	order    list.List // of *boundGroup, most recently used first
	bytes    int
	maxBytes int
	marked   int // offers marked, for the tests
	// afterHint, when set, is called by an upload between its read of
	// the epoch and its offers (tests make a rebuild there).
	afterHint func()
}

// boundGroup is one group's bounds, under key (boundGroupKey).
type boundGroup struct {
	key    string
	points map[boundPoint]boundRank
}

// boundRank is a bound: a sort value, then an upload time (Unix
// microseconds, as stored). Offers of an equal rank are offered: the run
// id decides those.
type boundRank struct {
	sortValue float64
	uploaded  int64
}

// rankOf is v's rank.
func rankOf(v *bestRow) boundRank { return boundRank{v.sortValue, v.uploaded.UnixMicro()} }

// worse is whether r ranks strictly after b even with the best id.
func (r boundRank) worse(b boundRank) bool {
	return r.sortValue > b.sortValue || (r.sortValue == b.sortValue && r.uploaded > b.uploaded)
}

// boundPoint is a point and metric of a group: a table of bests' key past
// the group.
type boundPoint struct {
	context, concurrency int32
	metric, status       uint8
}

// boundMetrics and boundStatuses code a point's metric and status in a
// byte each: a table of bests holds no others (the checks of migrations
// 0019 and 0033).
var (
	boundMetrics  = map[string]uint8{"total_tps": 1, "per_request_tps": 2, "ttft_ms": 3, "tokens_per_joule": 4}
	boundStatuses = map[string]uint8{"valid": 1, "queued": 2}
)

// pointOf is k's point.
func pointOf(k *bestKey) boundPoint {
	return boundPoint{int32(k.context), int32(k.concurrency), boundMetrics[k.metric], boundStatuses[k.status]}
}

// defaultBoundBytes bounds a Bests handle's bounds: some 4,000 groups of 51
// offers at the estimate below, a small part of the server's memory.
const defaultBoundBytes = 4 << 20

// Estimates of what the maps take, for the bound on their bytes, on the
// high side: a map entry of a point (its 12-byte key, the 16-byte value, the
// map's overhead at its lowest load), and a group's list element, its
// entry in groups, its map's header and its key's header (the key's bytes
// are counted apart).
const (
	boundPointBytes = 64
	boundGroupBytes = 256
)

func newBestBounds(maxBytes int) *bestBounds {
	return &bestBounds{groups: map[string]*list.Element{}, maxBytes: maxBytes}
}

// boundGroupKey names table i's group of k.
func boundGroupKey(i int, k bestKey) string {
	return strings.Join([]string{strconv.Itoa(i), k.model, k.hardware, k.engine, k.quantization,
		strconv.FormatBool(k.demo), k.extra}, "\x00")
}

// hint takes the epoch an upload read before its offers: another one than
// the bounds were learned under means a best may have got worse since, so
// they all go. An older one too: it is an upload's that read it before a
// rebuild (its marks are ignored), or the epoch of a database that is not
// the one the bounds were learned from (a restored or promoted copy).
func (b *bestBounds) hint(epoch int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.known || epoch != b.epoch {
		b.reset(epoch)
	}
}

// forget drops every bound until an upload reads the epoch again: for
// when this handle may have lost touch with the database its bounds came
// from (a failed upload, the change listener's connection lost). After a
// failover to a replica that had not replayed every commit, the bounds
// learned from the lost uploads would be false under the same epoch.
func (b *bestBounds) forget() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reset(0)
	b.known = false
}

// reset forgets every bound, for epoch. The caller holds b.mu.
func (b *bestBounds) reset(epoch int64) {
	b.epoch, b.known = epoch, true
	clear(b.groups)
	b.order.Init()
	b.bytes = 0
}

// cannotWin marks, in the order of offers, those of table i that rank
// strictly after the bound known under epoch (boundRank.worse; an equal
// rank may still win by its id, so it is offered). It marks nothing when
// the bounds are of another epoch.
func (b *bestBounds) cannotWin(epoch int64, i int, offers []bestOffer) []bool {
	skip := make([]bool, len(offers))
	if len(offers) == 0 {
		return skip
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.known || epoch != b.epoch {
		return skip
	}
	e, ok := b.groups[boundGroupKey(i, offers[0].k)]
	if !ok {
		return skip
	}
	b.order.MoveToFront(e)
	points := e.Value.(*boundGroup).points
	for j := range offers {
		k := &offers[j].k
		if bound, ok := points[pointOf(k)]; ok {
			if skip[j] = rankOf(&offers[j].v).worse(bound); skip[j] {
				b.marked++
			}
		}
	}
	return skip
}

// learn records, after the commit of an upload that read epoch before its
// offers, what its offers to table i (all of one group) tell: the stored
// best is now at least as good as each. Nothing when the bounds are of
// another epoch.
func (b *bestBounds) learn(epoch int64, i int, offers []bestOffer) {
	if len(offers) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.known || epoch != b.epoch {
		return
	}
	key := boundGroupKey(i, offers[0].k)
	var g *boundGroup
	if e, ok := b.groups[key]; ok {
		b.order.MoveToFront(e)
		g = e.Value.(*boundGroup)
	} else {
		g = &boundGroup{key: key, points: make(map[boundPoint]boundRank, len(offers))}
		b.groups[key] = b.order.PushFront(g)
		b.bytes += boundGroupBytes + len(key)
	}
	for j := range offers {
		k, v := &offers[j].k, rankOf(&offers[j].v)
		p := pointOf(k)
		if old, ok := g.points[p]; !ok {
			g.points[p] = v
			b.bytes += boundPointBytes
		} else if old.worse(v) {
			g.points[p] = v
		}
	}
	b.evict()
}

// evict drops the least recently used groups until the bounds fit
// maxBytes. The caller holds b.mu.
func (b *bestBounds) evict() {
	for b.bytes > b.maxBytes {
		e := b.order.Back()
		if e == nil {
			return
		}
		g := e.Value.(*boundGroup)
		b.order.Remove(e)
		delete(b.groups, g.key)
		b.bytes -= boundGroupBytes + len(g.key) + boundPointBytes*len(g.points)
	}
}

// size is how many groups b holds and its estimate of their bytes.
func (b *bestBounds) size() (groups, bytes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.groups), b.bytes
}

// BoundedUpload is an upload of one run's use of its Bests handle's bounds: the
// epoch it read before its offers, and its offers per table of bests, to
// learn from once it committed.
type BoundedUpload struct {
	bounds *bestBounds
	epoch  int64
	offers [][]bestOffer
}

// startUpload is an upload that read epoch before its offers.
func (b *bestBounds) startUpload(epoch int64) *BoundedUpload {
	b.hint(epoch)
	if b.afterHint != nil {
		b.afterHint()
	}
	return &BoundedUpload{bounds: b, epoch: epoch, offers: make([][]bestOffer, len(bestTables))}
}

// marks keeps offers, table i's, and marks those that cannot win. A nil
// upload marks none.
func (u *BoundedUpload) marks(i int, offers []bestOffer) []bool {
	if u == nil {
		return make([]bool, len(offers))
	}
	u.offers[i] = offers
	return u.bounds.cannotWin(u.epoch, i, offers)
}

// offered keeps offers, table i's, sent with none marked (a run's too
// many to mark: QueueIndexRun), to learn from. A nil upload keeps none.
func (u *BoundedUpload) offered(i int, offers []bestOffer) {
	if u != nil {
		u.offers[i] = offers
	}
}

// epochOr0 is the epoch u read; any will do when nothing is marked.
func (u *BoundedUpload) epochOr0() int64 {
	if u == nil {
		return 0
	}
	return u.epoch
}

// Committed learns from u's offers: call it only once the upload
// committed.
func (u *BoundedUpload) Committed() {
	for i, offers := range u.offers {
		u.bounds.learn(u.epoch, i, offers)
	}
}
