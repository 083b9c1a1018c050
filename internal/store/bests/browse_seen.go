package bests

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// SeenWith returns the identities of the given kinds (hardware, engine,
// model, model_base) that share a browse group with one identity: the
// engines and base models run on a hardware, a base model's hardware,
// engines and variants, … with their names, by kind in the order given,
// then by name.
//
// It probes browse_groups once per identity of each kind (a few dozen,
// however many runs there are) on an index over the pair of columns
// (migration 0005), instead of reading every group of the identity, whose
// number grows with runs (docs/scale.md). The slug is opaque to the planner
// (SELECT $1), as in ListRuns, so one generic plan serves every slug.
func (s *Bests) SeenWith(ctx context.Context, kind, slug string, kinds []string) (_ []Found, err error) {
	defer db.Wrap(&err, "SeenWith(%s, %q)", kind, slug)
	col, ok := groupColumn[kind]
	if !ok {
		return nil, fmt.Errorf("no groups by %s", kind)
	}
	var branches []string
	for i, k := range kinds {
		other, ok := groupColumn[k]
		if !ok || k == kind {
			return nil, fmt.Errorf("no links from %s to %s", kind, k)
		}
		// k is one of groupColumn's keys, safe to write as a literal; a
		// literal kind lets the planner size each branch.
		branches = append(branches, fmt.Sprintf(`SELECT %d AS ord, i.kind, i.slug, i.name FROM identities i
WHERE i.kind = '%s' AND EXISTS (SELECT FROM browse_groups g WHERE g.%s = (SELECT $1::text) AND g.%s = i.slug)`, i, k, col, other))
	}
	if len(branches) == 0 {
		return nil, nil
	}
	rows, _ := s.db.Public().Query(ctx, `SELECT kind, slug, name FROM (`+strings.Join(branches, "\nUNION ALL\n")+`) AS x
ORDER BY ord, lower(name), slug`, slug)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Found, error) {
		var f Found
		err := row.Scan(&f.Kind, &f.Slug, &f.Name)
		return f, err
	})
}

// VersionRuns is one engine version with its number of runs.
type VersionRuns struct {
	Version string
	Runs    int64
}

// EngineVersions returns the versions an engine was run at, with their
// runs, in no particular order; runs without a version are left out. It
// reads one row per version (engine_version_runs), however many browse
// groups the engine has.
func (s *Bests) EngineVersions(ctx context.Context, engine string) (_ []VersionRuns, err error) {
	defer db.Wrap(&err, "EngineVersions(%q)", engine)
	rows, _ := s.db.Public().Query(ctx, engineVersionsSQL, engine)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (VersionRuns, error) {
		var v VersionRuns
		err := row.Scan(&v.Version, &v.Runs)
		return v, err
	})
}

// engineVersionsSQL is EngineVersions' statement ($1, the engine): the
// folded counts and the deltas not folded yet (browse_counts.go).
const engineVersionsSQL = `SELECT engine_version, sum(runs)::bigint FROM (
    SELECT engine_version, runs FROM engine_version_runs WHERE engine_slug = $1
    UNION ALL SELECT engine_version, runs FROM browse_count_deltas WHERE engine_slug = $1 AND engine_version <> '') AS v
GROUP BY 1 HAVING sum(runs) > 0`
