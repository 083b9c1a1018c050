package accounts

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// NameInUse is a handle, organisation slug or retired handle, by kind:
// "handle", "org" or "retired".
type NameInUse struct {
	Kind, Name string
}

// lookalikesSQL lists the names in use that share their skeleton with
// another (handles retired less than $1 seconds ago count), by skeleton.
const lookalikesSQL = `
SELECT skeleton, kind, name FROM (
    SELECT skeleton, kind, name, count(*) OVER (PARTITION BY skeleton) AS n FROM (
        SELECT skeleton, 'handle' AS kind, handle AS name FROM submitters
        UNION ALL
        SELECT skeleton, 'org', slug FROM orgs
        UNION ALL
        SELECT skeleton, 'retired', handle FROM retired_handles
        WHERE retired_at > now() - make_interval(secs => $1)
    ) names WHERE skeleton IS NOT NULL
) grouped
WHERE n > 1
ORDER BY skeleton, kind, lower(name), name`

// Lookalikes returns the groups of names in use that look alike
// (names.Skeleton), each sorted by kind and name, for the operator: such
// names were taken before they were compared by skeleton and are kept as
// they are, never renamed; no new one can join them.
func (s *Accounts) Lookalikes(ctx context.Context) (groups [][]NameInUse, err error) {
	defer db.Wrap(&err, "Lookalikes")
	rows, _ := s.db.Pool().Query(ctx, lookalikesSQL, HandleQuarantine.Seconds())
	var skeleton, last string
	var n NameInUse
	_, err = pgx.ForEachRow(rows, []any{&skeleton, &n.Kind, &n.Name}, func() error {
		if len(groups) == 0 || skeleton != last {
			groups = append(groups, nil)
			last = skeleton
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], n)
		return nil
	})
	return groups, err
}
