package plan

import "testing"

// TestLadderAnswer: the largest concurrency whose speed meets the need,
// even past one that misses it; none when nothing meets it or when the
// setup's contexts fall short of the asked one.
func TestLadderAnswer(t *testing.T) {
	l := Ladder{
		Concurrencies: []int{1, 2, 4, 8},
		Speeds:        []float64{60, 38, 41, 12},
		RunIDs:        []string{"a", "b", "c", "d"},
		Derived:       []bool{false, false, true, false},
	}
	for _, tc := range []struct {
		need    float64
		short   bool
		users   int
		run     string
		speed   float64
		derived bool
	}{
		{need: 40, users: 4, run: "c", speed: 41, derived: true}, // 2 users miss 40 by noise; 4 meet it
		{need: 12, users: 8, run: "d", speed: 12},                // meeting exactly is meeting
		{need: 50, users: 1, run: "a", speed: 60},
		{need: 61},              // nothing meets it
		{need: 10, short: true}, // no measured context reaches the asked one
	} {
		s := Setup{Short: tc.short, MaxUsers: 99, RunID: "stale", PerRequestTPS: 1, Derived: true}
		l.Answer(&s, tc.need)
		if s.MaxUsers != tc.users || s.RunID != tc.run || s.PerRequestTPS != tc.speed || s.Derived != tc.derived {
			t.Errorf("need %g short %v: %d users, run %q, %g tok/s, derived %v; want %d, %q, %g, %v",
				tc.need, tc.short, s.MaxUsers, s.RunID, s.PerRequestTPS, s.Derived, tc.users, tc.run, tc.speed, tc.derived)
		}
	}
	var empty Ladder
	s := Setup{}
	empty.Answer(&s, 0)
	if s.MaxUsers != 0 {
		t.Errorf("an empty ladder (a context of queued cells only) answers %d users", s.MaxUsers)
	}
}
