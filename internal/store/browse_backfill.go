package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// backfillBrowse gives every run whose slugs were computed by an older
// catalog.Version (or never: runs stored before migration 0003) its
// identities and numbers, then rebuilds best_cells once. Migrate calls it
// after the schema migrations, so a server never serves lists missing runs.
// It is idempotent and does nothing when every run is current; its cost is
// one pass over the stale runs (Go computes the slugs: the catalogue's
// patterns are not SQL).
func backfillBrowse(ctx context.Context, databaseURL string) (err error) {
	defer wrap(&err, "backfillBrowse")
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `
SELECT id, hardware_type, hardware_gpu_name, hardware_gpu_count, hardware_vram_gb, hardware_cpu_name,
    hardware_ram_gb, engine_name, engine_quantization, model_id, submitter
FROM runs WHERE catalog_version <> $1 ORDER BY id FOR UPDATE`, catalog.Version)
		type stale struct {
			id string
			r  run.Run
		}
		list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (stale, error) {
			var s stale
			h := &s.r.Hardware
			err := row.Scan(&s.id, &h.Type, &h.GPUName, &h.GPUCount, &h.VRAMGB, &h.CPUName, &h.RAMGB,
				&s.r.Engine.Name, &s.r.Engine.Quantization, &s.r.Model.ID, &s.r.Submitter)
			return s, err
		})
		if err != nil || len(list) == 0 {
			return err
		}
		for i := range list {
			if err := indexRun(ctx, tx, list[i].id, &list[i].r, false); err != nil {
				return fmt.Errorf("run %s: %w", list[i].id, err)
			}
		}
		return rebuildAllBest(ctx, tx)
	})
}
