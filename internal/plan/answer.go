package plan

import (
	"cmp"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// SetupKey is one setup measured on the hardware: model variant, engine
// and quantization, as the catalog's slugs; demo runs are setups of their
// own, as on the leaderboard.
type SetupKey struct {
	Model, ModelBase, Engine, Quantization string
	Demo                                   bool
}

// Setup is one setup's answer, as the store decides it from the tables of
// bests (Store.PlanSetups): at the context used, the largest number of
// users whose valid cell gives each request the asked speed, even where a
// smaller number misses it by noise, from the run serving them fastest.
// Hidden runs, quick runs and runs above the physical bound never answer
// (the tables of bests leave them out).
type Setup struct {
	Key                                     SetupKey
	ModelName, EngineName, QuantizationName string
	// RunID is the run whose cell answers: the one that serves MaxUsers,
	// and of those the fastest per request. Empty when none meets the need.
	RunID string
	// MaxUsers is the largest concurrency whose valid cell at ContextUsed
	// gives each request MinUserTPS; 0 when no measured cell does.
	MaxUsers int
	// PerRequestTPS is that cell's speed per request: its per_request_tps,
	// or where the file lacks it total ÷ concurrency (Derived).
	PerRequestTPS float64
	Derived       bool
	// ContextUsed is the measured context the answer is read at: the
	// asked one, or the next larger measured (Raised). Short says no
	// measured context reaches the asked one; ContextUsed is then the
	// longest measured, and MaxUsers 0.
	ContextUsed   int
	Raised, Short bool
	// Cell is the answering cell as stored (its total, TTFT, the context
	// the tool sent), for the setups a Result shows; nil for the others,
	// when MaxUsers is 0, and when the run was hidden since.
	Cell *run.DecodeCell
}

// Meets reports whether s serves at least n users at the asked speed.
func (s *Setup) Meets(n int) bool { return s.MaxUsers >= max(n, 1) }

// Answer is the measured half of the planner's answer.
type Answer struct {
	// Setups are the setups that serve the request's users at its speed,
	// Unmet the rest (too few users, or no measured cell meets the need),
	// each ranked by users served, then speed per request, demo setups
	// after measured ones, as they never rank beside them; each list the
	// first Request.Limit only.
	Setups, Unmet []Setup
	// SetupsTotal and UnmetTotal count each list whole, those beyond
	// the limit included.
	SetupsTotal, UnmetTotal int
}

// Measured answers r from the answers of every setup measured on one
// hardware: those the filters leave out, and demo setups unless demo is
// set (a site that shows demo data), are dropped; the rest are ranked,
// split by whether they serve r's users, and each list cut to r.Limit
// (DefaultLimit when unset), with its whole count. A page then reads
// cells and runs for as many setups whatever the hardware's number.
func Measured(r Request, setups []Setup, demo bool) Answer {
	var a Answer
	for _, s := range setups {
		if s.Key.Demo && !demo || !keeps(r, s.Key) {
			continue
		}
		if s.Meets(r.Users) {
			a.Setups = append(a.Setups, s)
		} else {
			a.Unmet = append(a.Unmet, s)
		}
	}
	slices.SortFunc(a.Setups, rank)
	slices.SortFunc(a.Unmet, rank)
	a.SetupsTotal, a.UnmetTotal = len(a.Setups), len(a.Unmet)
	limit := r.ShownLimit()
	a.Setups, a.Unmet = a.Setups[:min(limit, len(a.Setups))], a.Unmet[:min(limit, len(a.Unmet))]
	return a
}

// keeps reports whether the request's filters keep setup k: the model
// filter matches the variant or its base model.
func keeps(r Request, k SetupKey) bool {
	return (Matches(r.Model, k.Model) || Matches(r.Model, k.ModelBase)) &&
		Matches(r.Engine, k.Engine) && Matches(r.Quantization, k.Quantization)
}

// rank orders setups: measured before demo, more users first, then the
// faster per request, then by name and run for a stable page.
// The names are compared only on a tie (cmp.Or would compare them all
// every time, and a busy hardware sorts over a hundred setups).
func rank(a, b Setup) int {
	if c := cmp.Or(
		boolOrder(a.Key.Demo, b.Key.Demo),
		cmp.Compare(b.MaxUsers, a.MaxUsers),
		cmp.Compare(b.PerRequestTPS, a.PerRequestTPS),
	); c != 0 {
		return c
	}
	return cmp.Or(
		cmp.Compare(a.ModelName, b.ModelName),
		cmp.Compare(a.Key.Engine, b.Key.Engine),
		cmp.Compare(a.Key.Quantization, b.Key.Quantization),
		cmp.Compare(a.RunID, b.RunID),
	)
}

func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Shown are the setups the answer shows, met then unmet.
func (a Answer) Shown() []*Setup {
	out := make([]*Setup, 0, len(a.Setups)+len(a.Unmet))
	for _, list := range [][]Setup{a.Setups, a.Unmet} {
		for i := range list {
			out = append(out, &list[i])
		}
	}
	return out
}
