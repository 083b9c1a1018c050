package bests

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// RunSummary is one line of a list of runs.
type RunSummary struct {
	ID            string    `db:"id"`
	ModelID       string    `db:"model_id"`
	GPUName       string    `db:"hardware_gpu_name"`
	GPUCount      int       `db:"hardware_gpu_count"`
	VRAMGB        float64   `db:"hardware_vram_gb"`
	EngineName    string    `db:"engine_name"`
	EngineVersion string    `db:"engine_version"`
	Quantization  string    `db:"engine_quantization"`
	Submitter     string    `db:"submitter"`
	UploadedAt    time.Time `db:"uploaded_at"`
	// BestTotalTPS is the highest total throughput among the run's valid
	// cells; nil when no cell is valid.
	BestTotalTPS *float64 `db:"best_total_tps"`
}

// ListRecent returns the newest runs, newest first, at most limit of them.
// Runs of one microsecond come in descending id, as on /runs: one index,
// runs_newest_idx read backward, serves both.
func (s *Bests) ListRecent(ctx context.Context, limit int) (_ []RunSummary, err error) {
	defer db.Wrap(&err, "ListRecent(%d)", limit)
	rows, _ := s.db.Public().Query(ctx, `
SELECT r.id, r.model_id, r.hardware_gpu_name, r.hardware_gpu_count, r.hardware_vram_gb,
    r.engine_name, r.engine_version, r.engine_quantization, r.submitter, r.uploaded_at,
    (SELECT max(c.total_tps) FROM decode_cells c
     WHERE c.run_id = r.id AND c.status = 'valid') AS best_total_tps
FROM runs r
WHERE NOT r.hidden
ORDER BY r.uploaded_at DESC, r.id DESC
LIMIT $1`, limit)
	list, err := pgx.CollectRows(rows, pgx.RowToStructByName[RunSummary])
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].UploadedAt = list[i].UploadedAt.UTC()
	}
	return list, nil
}

// CountRuns returns the number of stored runs.
func (s *Bests) CountRuns(ctx context.Context) (n int64, err error) {
	defer db.Wrap(&err, "CountRuns")
	err = s.db.Pool().QueryRow(ctx, `SELECT count(*) FROM runs`).Scan(&n)
	return n, err
}
