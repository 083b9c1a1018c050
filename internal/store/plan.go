package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// planCellsSQL reads the planner's candidate cells (PlanCells).
var planCellsSQL = sqlFile("plan_cells")

// PlanCells are the candidate cells plan.Measured ranks for a request at
// context ctx on the hardware identity hardware: for each setup measured
// there, at the context it is read at (plan_cells.sql says which), the
// cells of the runs that are best per request or in total at each
// concurrency. Hidden runs, quick runs and runs above the physical bound
// are not among them (the tables of bests leave them out); demo runs are,
// marked in their setup. A hardware nobody measured gives no cells.
func (s *Store) PlanCells(ctx context.Context, hardware string, ctxTokens int) (_ []plan.Cell, err error) {
	defer db.Wrap(&err, "PlanCells(%q, %d)", hardware, ctxTokens)
	rows, _ := s.db.Public().Query(ctx, planCellsSQL, hardware, ctxTokens)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (plan.Cell, error) {
		var c plan.Cell
		k := &c.Setup
		err := row.Scan(&c.RunID, &k.Model, &k.ModelBase, &k.Engine, &k.Quantization, &k.Demo,
			&c.ModelName, &c.EngineName, &c.QuantizationName,
			&c.Context, &c.Concurrency, &c.MeasuredContext, &c.Status, &c.PerRequestTPS, &c.TotalTPS, &c.TTFTms)
		return c, err
	})
}

// planRunsSQL reads the header of the runs a plan's rows name.
const planRunsSQL = `
SELECT id, uploaded_at, submitter, hardware_type, hardware_gpu_name, hardware_gpu_count,
    hardware_vram_gb, hardware_cpu_name, engine_name, engine_version, engine_quantization,
    engine_launch_command, model_id, model_served_name, demo
FROM runs
WHERE id = ANY($1) AND NOT hidden`

// PlanRuns are the runs of ids (those a plan's rows answer with) with
// their header: the facts the decode bound is read from (hardware, model,
// quantization, launch command) and what a row names. No cells. A run
// hidden or deleted since its cells were read is left out.
func (s *Store) PlanRuns(ctx context.Context, ids []string) (_ map[string]*run.Run, err error) {
	defer db.Wrap(&err, "PlanRuns(%d runs)", len(ids))
	out := make(map[string]*run.Run, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, _ := s.db.Public().Query(ctx, planRunsSQL, ids)
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*run.Run, error) {
		r := new(run.Run)
		h, e := &r.Hardware, &r.Engine
		err := row.Scan(&r.ID, &r.UploadedAt, &r.Submitter, &h.Type, &h.GPUName, &h.GPUCount,
			&h.VRAMGB, &h.CPUName, &e.Name, &e.Version, &e.Quantization,
			&e.LaunchCommand, &r.Model.ID, &r.Model.ServedName, &r.Demo)
		r.UploadedAt = r.UploadedAt.UTC()
		return r, err
	})
	for _, r := range list {
		out[r.ID] = r
	}
	return out, err
}
