package plan

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/calculator"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Store is what the planner reads of the stored runs (package store's
// Store has both methods).
type Store interface {
	// PlanCells are the candidate cells on a hardware identity for a
	// request at the context (see Measured).
	PlanCells(ctx context.Context, hardware string, context int) ([]Cell, error)
	// PlanRuns are the headers of the runs ids, by id.
	PlanRuns(ctx context.Context, ids []string) (map[string]*run.Run, error)
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
	// Runs are the headers of the runs the setups answer with, by id.
	Runs map[string]*run.Run
	// Bounds is each answering cell against its decode bound, by run id;
	// a run whose facts the calculator cannot place has none.
	Bounds map[string]calculator.CellBound
}

// Plan answers r, a request ParseRequest read without problems, from st
// and the calculator's tables t. demo keeps demo setups (marked), for a
// site that shows demo data. A hardware neither measured nor in the table
// is UnknownHardware's Problem, which errors.As finds.
func Plan(ctx context.Context, st Store, t *calculator.Tables, r Request, demo bool) (*Result, error) {
	cells, err := st.PlanCells(ctx, r.Hardware, r.Context)
	if err != nil {
		return nil, err
	}
	res := &Result{Request: r, Answer: Measured(r, cells, demo), Bounds: map[string]calculator.CellBound{}}
	res.GPU, res.GPUKnown = t.GPUByID(r.Device)
	if len(cells) == 0 && !res.GPUKnown {
		return nil, UnknownHardware()
	}
	if res.GPUKnown {
		res.Estimates = Estimates(r, t, res.GPU, cells)
	}
	var ids []string
	for _, s := range res.Setups {
		ids = append(ids, s.RunID)
	}
	if res.Runs, err = st.PlanRuns(ctx, ids); err != nil {
		return nil, err
	}
	for _, s := range res.Setups {
		if rr := res.Runs[s.RunID]; rr != nil {
			c := s.Cell
			dc := run.DecodeCell{Context: c.Context, Concurrency: c.Concurrency, MeasuredContext: c.MeasuredContext,
				Status: c.Status, Metrics: run.Metrics{TotalTPS: c.TotalTPS}}
			res.Bounds[s.RunID] = calculator.ForRun(rr).Cell(&dc)
		}
	}
	return res, nil
}
