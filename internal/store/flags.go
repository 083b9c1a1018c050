package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// setFlags stores the runs' plausibility flags and the version they were
// derived with, before the browse index reads them (best_cells leaves
// flagged runs out). The column above_bound holds whether any
// plausibility flag is raised (run.Unrankable): every ranking leaves such
// runs out alike; the report and the API derive which flag afresh.
func setFlags(ctx context.Context, tx pgx.Tx, ids []string, runs []*run.Run) error {
	above := make([]bool, len(runs))
	versions := make([]string, len(runs))
	for i, r := range runs {
		above[i], versions[i] = run.Unrankable(r.Flags), r.BoundVersion
	}
	_, err := tx.Exec(ctx, `
UPDATE runs r SET above_bound = f.above, bound_version = f.version
FROM unnest($1::text[], $2::boolean[], $3::text[]) AS f (id, above, version)
WHERE r.id = f.id`, ids, above, versions)
	return err
}

// selectFlagsSQL reads a run's stored flags and the organisation it was
// uploaded for (empty when none), in GetRun's batch (scanFlags): one
// statement for both, kept apart from selectRunSQL so the backup's reading
// of runs rows stays as it is.
const selectFlagsSQL = `
SELECT r.above_bound, r.bound_version, coalesce(o.slug, ''), coalesce(o.name, '')
FROM runs r LEFT JOIN orgs o ON o.id = r.org_id
WHERE r.id = $1`

// scanFlags reads the stored flags and the organisation of a run from
// selectFlagsSQL's row.
func scanFlags(row pgx.Row, r *run.Run) error {
	var above bool
	err := row.Scan(&above, &r.BoundVersion, &r.Org.Slug, &r.Org.Name)
	if above {
		r.Flags = []string{run.FlagAboveBound}
	}
	return err
}
