package store

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// RunOrgs are the organisations the runs ids were uploaded for, by run id;
// a run uploaded for none (or not found) is absent. One query by the
// primary keys of runs and orgs, for a few shown rows (the leaderboard's
// API): the tables of bests keep what a board's page shows, and an
// organisation is not of it, so it is read from the runs only when asked.
func (s *Store) RunOrgs(ctx context.Context, ids []string) (_ map[string]run.Org, err error) {
	defer db.Wrap(&err, "RunOrgs(%d runs)", len(ids))
	out := map[string]run.Org{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.db.Public().Query(ctx, `
SELECT r.id, o.slug, o.name FROM runs r JOIN orgs o ON o.id = r.org_id
WHERE r.id = ANY($1::text[])`, ids)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var o run.Org
		if err := rows.Scan(&id, &o.Slug, &o.Name); err != nil {
			return nil, err
		}
		out[id] = o
	}
	return out, rows.Err()
}
