package store

import (
	"context"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// setFlags stores the runs' plausibility flags and the version they were
// derived with, before the browse index reads them (best_cells leaves
// flagged runs out). The column above_bound holds whether any
// plausibility flag is raised (run.Unrankable): every ranking leaves such
// runs out alike; flags holds which, for the lists to word each (the
// report and the API derive them afresh).
func setFlags(ctx context.Context, tx pgx.Tx, ids []string, runs []*run.Run) error {
	above := make([]bool, len(runs))
	versions := make([]string, len(runs))
	// One flags array per run, as a text array each: PostgreSQL's arrays
	// are rectangular, so unnest takes them as text and casts.
	flags := make([]string, len(runs))
	for i, r := range runs {
		above[i], versions[i] = run.Unrankable(r.Flags), r.BoundVersion
		flags[i] = "{" + strings.Join(r.Flags, ",") + "}"
	}
	_, err := tx.Exec(ctx, `
UPDATE runs r SET above_bound = f.above, bound_version = f.version, flags = f.flags::text[]
FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[]) AS f (id, above, version, flags)
WHERE r.id = f.id`, ids, above, versions, flags)
	return err
}

// selectFlagsSQL reads a run's stored flags and the organisation it was
// uploaded for (empty when none), in GetRun's batch (scanFlags): one
// statement for both, kept apart from selectRunSQL so the backup's reading
// of runs rows stays as it is.
const selectFlagsSQL = `
SELECT r.flags, r.bound_version, coalesce(o.slug, ''), coalesce(o.name, '')
FROM runs r LEFT JOIN orgs o ON o.id = r.org_id
WHERE r.id = $1`

// scanFlags reads the stored flags and the organisation of a run from
// selectFlagsSQL's row.
func scanFlags(row pgx.Row, r *run.Run) error {
	var flags []string
	err := row.Scan(&flags, &r.BoundVersion, &r.Org.Slug, &r.Org.Name)
	if len(flags) > 0 {
		r.Flags = flags
	}
	return err
}
