package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Org is an organisation with its submitters, for /orgs/{slug}.
type Org struct {
	Slug, Name string
	Submitters []OrgSubmitter
}

// OrgSubmitter is one member and their newest visible runs.
type OrgSubmitter struct {
	Handle string
	Runs   []RunSummary
}

// orgRunsPerSubmitter bounds the runs listed under each member.
const orgRunsPerSubmitter = 50

// GetOrg loads the organisation slug with its submitters (by handle) and
// each one's newest runs; hidden runs are left out. An unknown slug is
// ErrNotFound.
func (s *Store) GetOrg(ctx context.Context, slug string) (_ *Org, err error) {
	defer wrap(&err, "GetOrg(%q)", slug)
	o := &Org{}
	var orgID int64
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = s.transact(ctx, opts, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT id, slug, name FROM orgs WHERE slug = $1`, slug).Scan(&orgID, &o.Slug, &o.Name)
		if err != nil {
			return notFound(err)
		}
		rows, _ := tx.Query(ctx, `SELECT handle FROM submitters WHERE org_id = $1 ORDER BY lower(handle)`, orgID)
		handles, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, h := range handles {
			rows, _ := tx.Query(ctx, orgRunsSQL, orgID, h, orgRunsPerSubmitter)
			runs, err := pgx.CollectRows(rows, pgx.RowToStructByName[RunSummary])
			if err != nil {
				return err
			}
			for i := range runs {
				runs[i].UploadedAt = runs[i].UploadedAt.UTC()
			}
			o.Submitters = append(o.Submitters, OrgSubmitter{Handle: h, Runs: runs})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// orgRunsSQL lists a member's runs with ListRecent's columns.
const orgRunsSQL = `
SELECT r.id, r.model_id, r.hardware_gpu_name, r.hardware_gpu_count, r.hardware_vram_gb,
    r.engine_name, r.engine_version, r.engine_quantization, r.submitter, r.uploaded_at,
    (SELECT max(c.total_tps) FROM decode_cells c
     WHERE c.run_id = r.id AND c.status = 'valid') AS best_total_tps
FROM runs r JOIN submitters s ON s.id = r.submitter_id
WHERE s.org_id = $1 AND s.handle = $2 AND NOT r.hidden
ORDER BY r.uploaded_at DESC, r.id
LIMIT $3`
