package plan

// Ladder is what a setup's measured context offers the planner: for each
// concurrency whose valid best answers there (ascending), the speed per
// request it serves, the run that serves it, and whether that speed is
// derived (total ÷ users, for a file that gives no speed per request).
// The store keeps one per hardware, setup and context measured.
type Ladder struct {
	Concurrencies []int
	Speeds        []float64
	RunIDs        []string
	Derived       []bool
}

// Answer sets s's answer from l at minUserTPS per request: the largest
// concurrency whose speed meets it, even where a smaller one misses it by
// noise; none (MaxUsers 0) when no concurrency does or when s is Short.
func (l Ladder) Answer(s *Setup, minUserTPS float64) {
	s.MaxUsers, s.RunID, s.PerRequestTPS, s.Derived = 0, "", 0, false
	if s.Short {
		return
	}
	for i := len(l.Concurrencies) - 1; i >= 0; i-- {
		if l.Speeds[i] >= minUserTPS {
			s.MaxUsers, s.RunID, s.PerRequestTPS, s.Derived = l.Concurrencies[i], l.RunIDs[i], l.Speeds[i], l.Derived[i]
			return
		}
	}
}
