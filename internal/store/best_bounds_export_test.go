package store

// Hooks on a Store's bounds on the stored bests (bestBounds), for the
// external tests.

// SetAfterEpochRead makes every upload of s call fn between its read of
// best_epoch and its offers (nil: none).
func SetAfterEpochRead(s *Store, fn func()) { s.bounds.afterHint = fn }

// BoundsMarked is how many offers s's uploads marked as unable to win.
func BoundsMarked(s *Store) int {
	s.bounds.mu.Lock()
	defer s.bounds.mu.Unlock()
	return s.bounds.marked
}

// BoundedOfferSQL is the offer statement of an upload to table i of
// bestTables.
func BoundedOfferSQL(i int) string { return bestTables[i].offerRun }

// BoundsEpoch is the epoch s's bounds were learned under, and whether s
// read one.
func BoundsEpoch(s *Store) (int64, bool) {
	s.bounds.mu.Lock()
	defer s.bounds.mu.Unlock()
	return s.bounds.epoch, s.bounds.known
}
