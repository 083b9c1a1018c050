package bests

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Backfill gives every run whose slugs were computed by an older
// catalog.Version (or never: runs stored before migration 0003) its
// identities and numbers, then rebuilds best_cells once. store.Migrate calls it
// after the schema migrations, so a server never serves lists missing runs.
// It is idempotent and does nothing when every run is current; its cost is
// one pass over the stale runs (Go computes the slugs: the catalogue's
// patterns are not SQL).
func Backfill(ctx context.Context, databaseURL string) (err error) {
	defer db.Wrap(&err, "Backfill")
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		ids, runs, err := staleRuns(ctx, tx)
		if err != nil || len(ids) == 0 {
			return err
		}
		slugs, names := identityArgs(runs)
		set := []any{ids}
		for _, s := range slugs {
			set = append(set, s)
		}
		set = append(set, catalog.Version)
		// The names first, then the runs rows and best cells under
		// bestLock: the lock order (the package comment).
		if _, err := tx.Exec(ctx, nameIdentitiesSQL, names...); err != nil {
			return fmt.Errorf("name identities: %w", err)
		}
		if err := LockBest(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, setIdentitiesSQL, set...); err != nil {
			return fmt.Errorf("set identities: %w", err)
		}
		return RebuildAll(ctx, tx)
	})
}

// staleRuns reads the facts that identities are computed from, of every run
// whose slugs are not of the current catalog.Version, by id. A run's facts
// never change, so they need no lock.
func staleRuns(ctx context.Context, tx pgx.Tx) (ids []string, runs []*run.Run, err error) {
	rows, _ := tx.Query(ctx, `
SELECT id, hardware_type, hardware_gpu_name, hardware_gpu_count, hardware_vram_gb, hardware_cpu_name,
    hardware_ram_gb, engine_name, engine_quantization, model_id, submitter
FROM runs WHERE catalog_version <> $1 ORDER BY id`, catalog.Version)
	defer rows.Close()
	for rows.Next() {
		var id string
		r := new(run.Run)
		h := &r.Hardware
		if err := rows.Scan(&id, &h.Type, &h.GPUName, &h.GPUCount, &h.VRAMGB, &h.CPUName, &h.RAMGB,
			&r.Engine.Name, &r.Engine.Quantization, &r.Model.ID, &r.Submitter); err != nil {
			return nil, nil, err
		}
		ids, runs = append(ids, id), append(runs, r)
	}
	return ids, runs, rows.Err()
}
