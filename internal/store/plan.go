package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// planSetupsSQL reads each setup's ladder at the context used (PlanSetups).
var planSetupsSQL = sqlFile("plan_setups")

// PlanSetups are the planner's answers on the hardware identity hardware
// at context ctxTokens and minUserTPS per request, one per setup measured
// there: plan_setups.sql reads each setup's ladder at the context used,
// kept from the tables of bests (so hidden runs, quick runs and runs above
// the physical bound never answer; demo setups are among them, marked),
// and plan.Ladder's Answer decides on it. Unranked, Cell unset. A hardware
// nobody measured gives none.
func (s *Store) PlanSetups(ctx context.Context, hardware string, ctxTokens int, minUserTPS float64) (_ []plan.Setup, err error) {
	defer db.Wrap(&err, "PlanSetups(%q, %d, %g)", hardware, ctxTokens, minUserTPS)
	rows, _ := s.db.Public().Query(ctx, planSetupsSQL, hardware, ctxTokens)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (plan.Setup, error) {
		var p plan.Setup
		var l plan.Ladder
		k := &p.Key
		err := row.Scan(&k.Model, &k.ModelBase, &k.Engine, &k.Quantization, &k.Demo,
			&p.ModelName, &p.EngineName, &p.QuantizationName, &p.ContextUsed, &p.Short,
			&l.Concurrencies, &l.Speeds, &l.RunIDs, &l.Derived)
		if err != nil {
			return p, err
		}
		p.Raised = !p.Short && p.ContextUsed > ctxTokens
		l.Answer(&p, minUserTPS)
		return p, nil
	})
}

// planRunsSQL reads the runs a plan's rows name, each with the cell that
// answers: one probe of each table's key per row shown.
const planRunsSQL = `
SELECT r.id, r.uploaded_at, r.submitter, r.hardware_type, r.hardware_gpu_name, r.hardware_gpu_count,
    r.hardware_vram_gb, r.hardware_cpu_name, r.engine_name, r.engine_version, r.engine_quantization,
    r.engine_launch_command, r.model_id, r.model_served_name, r.demo,
    c.context, c.concurrency, c.measured_context, c.status, c.per_request_tps, c.total_tps, c.ttft_ms
FROM unnest($1::text[], $2::int[], $3::int[]) AS a (run_id, context, concurrency)
JOIN runs r ON r.id = a.run_id AND NOT r.hidden
JOIN decode_cells c ON (c.run_id, c.context, c.concurrency) = (a.run_id, a.context, a.concurrency)`

// PlanRuns are the runs of cells (those a plan's shown rows answer with)
// with their header, the facts the decode bound is read from (hardware,
// model, quantization, launch command) and what a row names, and as their
// one decode cell the cell asked of each (its status and speeds). A run
// hidden or deleted since its answer was read is left out.
func (s *Store) PlanRuns(ctx context.Context, cells []plan.CellRef) (_ map[string]*run.Run, err error) {
	defer db.Wrap(&err, "PlanRuns(%d cells)", len(cells))
	out := make(map[string]*run.Run, len(cells))
	if len(cells) == 0 {
		return out, nil
	}
	ids, contexts, concs := make([]string, len(cells)), make([]int, len(cells)), make([]int, len(cells))
	for i, c := range cells {
		ids[i], contexts[i], concs[i] = c.RunID, c.Context, c.Concurrency
	}
	rows, _ := s.db.Public().Query(ctx, planRunsSQL, ids, contexts, concs)
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (*run.Run, error) {
		r := new(run.Run)
		h, e := &r.Hardware, &r.Engine
		var c run.DecodeCell
		err := row.Scan(&r.ID, &r.UploadedAt, &r.Submitter, &h.Type, &h.GPUName, &h.GPUCount,
			&h.VRAMGB, &h.CPUName, &e.Name, &e.Version, &e.Quantization,
			&e.LaunchCommand, &r.Model.ID, &r.Model.ServedName, &r.Demo,
			&c.Context, &c.Concurrency, &c.MeasuredContext, &c.Status, &c.PerRequestTPS, &c.TotalTPS, &c.TTFTms)
		r.UploadedAt = r.UploadedAt.UTC()
		r.Decode = []run.DecodeCell{c}
		return r, err
	})
	for _, r := range list {
		out[r.ID] = r
	}
	return out, err
}
