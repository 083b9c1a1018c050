package plan

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Store is what the planner reads of the stored runs (package store's
// Store has both methods).
type Store interface {
	// PlanSetups are the answers of every setup measured on a hardware
	// identity at the context and speed asked (see Setup), Cell unset.
	PlanSetups(ctx context.Context, hardware string, context int, minUserTPS float64) ([]Setup, error)
	// PlanRuns are the runs of the cells asked, by id: each run's header
	// and, as its one decode cell, the cell asked of it.
	PlanRuns(ctx context.Context, cells []CellRef) (map[string]*run.Run, error)
}

// CellRef names one decode cell of a run.
type CellRef struct {
	RunID                string
	Context, Concurrency int
}

// Result is the whole answer to a request: the measured setups, the
// estimates apart, and what the rows need beside the cells.
type Result struct {
	Request Request
	Answer
	Estimates []Estimate
	// GPU is the calculator's row of the hardware's device; GPUKnown says
	// whether the table has one (no estimates or bounds without it).
	GPU      calculator.GPU
	GPUKnown bool
	// Runs are the headers of the runs the shown setups answer with, by id.
	Runs map[string]*run.Run
	// Bounds is each answering cell against its decode bound, by run id;
	// a run whose facts the calculator cannot place has none.
	Bounds map[string]calculator.CellBound
}

// Plan answers r, a request ParseRequest read without problems, from st
// and the calculator's tables t. demo keeps demo setups (marked), for a
// site that shows demo data. A hardware neither measured nor in the table
// is UnknownHardware's Problem, which errors.As finds. It reads the
// answers of the hardware's setups, then the cells and runs of the ones
// shown only.
func Plan(ctx context.Context, st Store, t *calculator.Tables, r Request, demo bool) (*Result, error) {
	setups, err := st.PlanSetups(ctx, r.Hardware, r.Context, r.MinUserTPS)
	if err != nil {
		return nil, err
	}
	res := &Result{Request: r, Answer: Measured(r, setups, demo), Bounds: map[string]calculator.CellBound{}}
	res.GPU, res.GPUKnown = t.GPUByID(r.Device)
	if len(setups) == 0 && !res.GPUKnown {
		return nil, UnknownHardware()
	}
	if res.GPUKnown {
		res.Estimates = Estimates(r, t, res.GPU, setups)
	}
	var cells []CellRef
	for _, s := range res.Shown() {
		if s.MaxUsers > 0 {
			cells = append(cells, CellRef{s.RunID, s.ContextUsed, s.MaxUsers})
		}
	}
	if res.Runs, err = st.PlanRuns(ctx, cells); err != nil {
		return nil, err
	}
	for _, s := range res.Shown() {
		rr := res.Runs[s.RunID]
		if s.MaxUsers == 0 || rr == nil || len(rr.Decode) != 1 {
			continue
		}
		s.Cell = &rr.Decode[0]
		res.Bounds[s.RunID] = calculator.ForRun(rr).Cell(s.Cell)
	}
	return res, nil
}
