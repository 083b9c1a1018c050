package plan

import (
	"cmp"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Cell is one measured decode cell of a candidate run, with the setup it
// belongs to: what the store reads (the best runs of each setup at each
// grid point) and Measured ranks. Status is the status the site derived
// and stored; the planner only asks whether it is valid.
type Cell struct {
	RunID string
	Setup SetupKey
	// The identities' display names.
	ModelName, EngineName, QuantizationName string

	Context, Concurrency int
	// MeasuredContext is the context the tool actually sent when it
	// trimmed the requested one (0: as requested); the bound reads it.
	MeasuredContext int
	Status          run.Status
	// The cell's metrics; nil where the file did not say.
	PerRequestTPS, TotalTPS, TTFTms *float64
}

// SetupKey is one setup measured on the hardware: model variant, engine
// and quantization, as the catalog's slugs; demo runs are setups of their
// own, as on the leaderboard.
type SetupKey struct {
	Model, ModelBase, Engine, Quantization string
	Demo                                   bool
}

// Setup is one setup's answer.
type Setup struct {
	Key                                     SetupKey
	ModelName, EngineName, QuantizationName string
	// RunID is the run whose cell answers: the one that serves MaxUsers,
	// and of those the fastest per request. Empty when none meets the need.
	RunID string
	// MaxUsers is the largest concurrency whose valid cell at ContextUsed
	// gives each request MinUserTPS; 0 when no measured cell does.
	MaxUsers int
	// Cell is that cell (the zero Cell when MaxUsers is 0).
	Cell Cell
	// PerRequestTPS is the cell's speed per request: its per_request_tps,
	// or where the file lacks it total ÷ concurrency (Derived).
	PerRequestTPS float64
	Derived       bool
	// ContextUsed is the measured context the answer is read at: the
	// asked one, or the next larger measured (Raised). Short says no
	// measured context reaches the asked one; ContextUsed is then the
	// longest measured, and MaxUsers 0.
	ContextUsed   int
	Raised, Short bool
}

// Meets reports whether s serves at least n users at the asked speed.
func (s *Setup) Meets(n int) bool { return s.MaxUsers >= max(n, 1) }

// Answer is the measured half of the planner's answer.
type Answer struct {
	// Setups are the setups that serve the request's users at its speed,
	// Unmet the rest (too few users, or no measured cell meets the need),
	// each ranked by users served, then speed per request; demo setups
	// after measured ones, as they never rank beside them.
	Setups, Unmet []Setup
}

// Measured answers r from the candidate cells of one hardware. Cells of
// setups the filters leave out, and demo cells unless demo is set (a site
// that shows demo data), are ignored. The cells need not be whole grids:
// for each setup the context used is the smallest of its cells' contexts
// at or above r.Context, so the store may send that context's cells alone.
func Measured(r Request, cells []Cell, demo bool) Answer {
	bySetup := map[SetupKey][]Cell{}
	var order []SetupKey
	for _, c := range cells {
		k := c.Setup
		if k.Demo && !demo || !keeps(r, k) {
			continue
		}
		if _, seen := bySetup[k]; !seen {
			order = append(order, k)
		}
		bySetup[k] = append(bySetup[k], c)
	}
	var a Answer
	for _, k := range order {
		s := answerSetup(r, k, bySetup[k])
		if s.Meets(r.Users) {
			a.Setups = append(a.Setups, s)
		} else {
			a.Unmet = append(a.Unmet, s)
		}
	}
	slices.SortFunc(a.Setups, rank)
	slices.SortFunc(a.Unmet, rank)
	return a
}

// keeps reports whether the request's filters keep setup k: the model
// filter matches the variant or its base model.
func keeps(r Request, k SetupKey) bool {
	return (Matches(r.Model, k.Model) || Matches(r.Model, k.ModelBase)) &&
		Matches(r.Engine, k.Engine) && Matches(r.Quantization, k.Quantization)
}

// answerSetup is one setup's answer from its cells.
func answerSetup(r Request, k SetupKey, cells []Cell) Setup {
	first := cells[0]
	s := Setup{Key: k, ModelName: first.ModelName, EngineName: first.EngineName, QuantizationName: first.QuantizationName}
	s.ContextUsed, s.Short = contextFor(r.Context, cells)
	s.Raised = !s.Short && s.ContextUsed > r.Context
	if s.Short {
		return s
	}
	for _, c := range cells {
		if c.Context != s.ContextUsed || c.Status != run.Valid {
			continue
		}
		speed, derived, ok := perRequest(c)
		// The largest count that meets the need answers, even where a
		// smaller one misses it by noise: more users never make a request
		// faster, so a larger count that meets it is the measured truth.
		if !ok || speed < r.MinUserTPS {
			continue
		}
		better := c.Concurrency > s.MaxUsers ||
			c.Concurrency == s.MaxUsers && (speed > s.PerRequestTPS || speed == s.PerRequestTPS && c.RunID < s.RunID)
		if better {
			s.MaxUsers, s.Cell, s.RunID, s.PerRequestTPS, s.Derived = c.Concurrency, c, c.RunID, speed, derived
		}
	}
	return s
}

// contextFor is the measured context a request at ctx is read at: the
// smallest at or above it, or, when none is (short), the longest.
func contextFor(ctx int, cells []Cell) (used int, short bool) {
	used, longest := -1, -1
	for _, c := range cells {
		if c.Context >= ctx && (used < 0 || c.Context < used) {
			used = c.Context
		}
		longest = max(longest, c.Context)
	}
	if used < 0 {
		return longest, true
	}
	return used, false
}

// perRequest is a cell's speed per request: the measured per_request_tps,
// or total ÷ concurrency where the file lacks it (derived); ok is false
// when it has neither.
func perRequest(c Cell) (speed float64, derived, ok bool) {
	if c.PerRequestTPS != nil && *c.PerRequestTPS > 0 {
		return *c.PerRequestTPS, false, true
	}
	if c.TotalTPS != nil && *c.TotalTPS > 0 && c.Concurrency > 0 {
		return *c.TotalTPS / float64(c.Concurrency), true, true
	}
	return 0, false, false
}

// rank orders setups: measured before demo, more users first, then the
// faster per request, then by name and run for a stable page.
func rank(a, b Setup) int {
	return cmp.Or(
		boolOrder(a.Key.Demo, b.Key.Demo),
		cmp.Compare(b.MaxUsers, a.MaxUsers),
		cmp.Compare(b.PerRequestTPS, a.PerRequestTPS),
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

// MeasuredModels are the setups' models, for Estimates to leave out.
func (a Answer) MeasuredModels() []string {
	var out []string
	for _, list := range [][]Setup{a.Setups, a.Unmet} {
		for _, s := range list {
			out = append(out, s.Key.Model, s.Key.ModelBase)
		}
	}
	return out
}
