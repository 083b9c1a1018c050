package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// CompareCandidates returns runs worth comparing with run id, newest first,
// at most limit of each kind: runs of the same model variant (model_slug)
// and runs on the same hardware (hardware_slug: GPU, count and memory, as
// internal/catalog normalises them). The runs carry their header only (no
// cells): enough to name them in a list. An unknown id gives ErrNotFound.
func (s *Store) CompareCandidates(ctx context.Context, id string, limit int) (sameModel, sameHardware []*run.Run, err error) {
	defer db.Wrap(&err, "CompareCandidates(%q)", id)
	var model, hardware string
	err = s.db.Public().QueryRow(ctx, `SELECT model_slug, hardware_slug FROM runs WHERE id = $1`, id).Scan(&model, &hardware)
	if err != nil {
		return nil, nil, db.NotFound(err)
	}
	// An empty slug (a run without a model id or hardware) matches nothing:
	// "both unknown" is no reason to compare.
	if model != "" {
		if sameModel, err = s.runHeaders(ctx, `model_slug`, model, id, limit); err != nil {
			return nil, nil, err
		}
	}
	if hardware != "" {
		if sameHardware, err = s.runHeaders(ctx, `hardware_slug`, hardware, id, limit); err != nil {
			return nil, nil, err
		}
	}
	return sameModel, sameHardware, nil
}

// runHeaders lists runs whose column (a constant of this file, never
// input) equals value, newest first (ties in descending id, as every run
// list), leaving out the run except.
func (s *Store) runHeaders(ctx context.Context, column, value, except string, limit int) ([]*run.Run, error) {
	rows, _ := s.db.Public().Query(ctx, `
SELECT id, uploaded_at, submitter, hardware_type, hardware_gpu_name, hardware_gpu_count,
    hardware_vram_gb, hardware_cpu_name, engine_name, engine_version, engine_quantization,
    model_id, model_served_name, demo
FROM runs
WHERE `+column+` = $1 AND id <> $2
ORDER BY uploaded_at DESC, id DESC
LIMIT $3`, value, except, limit)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (*run.Run, error) {
		r := new(run.Run)
		h, e := &r.Hardware, &r.Engine
		err := row.Scan(&r.ID, &r.UploadedAt, &r.Submitter, &h.Type, &h.GPUName, &h.GPUCount,
			&h.VRAMGB, &h.CPUName, &e.Name, &e.Version, &e.Quantization,
			&r.Model.ID, &r.Model.ServedName, &r.Demo)
		r.UploadedAt = r.UploadedAt.UTC()
		return r, err
	})
}
