package bests

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// IdentityRuns is one identity with its number of visible runs; for a
// model variant, Base is its base model.
type IdentityRuns struct {
	catalog.Identity
	Runs int64
	Base catalog.Identity
}

// CountIdentities lists the identities of kind (hardware, engine or model:
// variants) that visible runs have, most runs first, from the counts kept
// per identity (identity_runs), so the answer costs the same however many
// runs and browse groups there are.
func (s *Bests) CountIdentities(ctx context.Context, kind string) (_ []IdentityRuns, err error) {
	defer db.Wrap(&err, "CountIdentities(%s)", kind)
	if _, ok := groupColumn[kind]; !ok || kind == KindModelBase {
		return nil, fmt.Errorf("no counts by %s", kind)
	}
	rows, _ := s.db.Public().Query(ctx, countIdentitiesSQL, kind)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (IdentityRuns, error) {
		var c IdentityRuns
		err := row.Scan(&c.Slug, &c.Name, &c.Runs, &c.Base.Slug, &c.Base.Name)
		if kind != KindModel {
			c.Base = catalog.Identity{}
		}
		return c, err
	})
}

// countIdentitiesSQL is CountIdentities' statement ($1, the kind): the
// folded counts and the deltas not folded yet (browse_counts.go).
const countIdentitiesSQL = `
SELECT g.slug, coalesce(i.name, g.slug), g.runs, g.base, coalesce(b.name, g.base)
FROM (SELECT slug, min(base) AS base, sum(runs)::bigint AS runs FROM (
        SELECT slug, base, runs FROM identity_runs WHERE kind = $1
        UNION ALL SELECT k.slug, k.base, d.runs FROM browse_count_deltas d ` + identityCountsOf + ` AND k.kind = $1) AS c
      GROUP BY 1 HAVING sum(runs) > 0) AS g
LEFT JOIN identities i ON i.kind = $1 AND i.slug = g.slug
LEFT JOIN identities b ON b.kind = 'model_base' AND b.slug = g.base
ORDER BY g.runs DESC, lower(coalesce(i.name, g.slug)), g.slug`
