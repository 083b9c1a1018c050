package bests

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Identity kinds, as the identities table names them.
const (
	KindHardware     = "hardware"
	KindEngine       = "engine"
	KindModel        = "model"
	KindModelBase    = "model_base"
	KindSubmitter    = "submitter"
	KindQuantization = "quantization"
)

// IdentityName returns the display name of a slug, or ErrNotFound when no
// run ever had it.
func (s *Bests) IdentityName(ctx context.Context, kind, slug string) (name string, err error) {
	defer db.Wrap(&err, "IdentityName(%s, %q)", kind, slug)
	err = s.db.Public().QueryRow(ctx, `SELECT name FROM identities WHERE kind = $1 AND slug = $2`, kind, slug).Scan(&name)
	return name, db.NotFound(err)
}

// identitiesSQL lists one kind's identities by name, for filter choices.
const identitiesSQL = `SELECT slug, name FROM identities WHERE kind = $1 ORDER BY lower(name), slug LIMIT $2`

// IdentityLists lists, by kind, the identities of each of kinds by name
// (at most limit each), for filter choices, in one round trip: a page's
// filter form lists several kinds, and asking for each in turn waited for
// the database once per kind.
func (s *Bests) IdentityLists(ctx context.Context, kinds []string, limit int) (_ map[string][]catalog.Identity, err error) {
	defer db.Wrap(&err, "IdentityLists(%v)", kinds)
	out := make(map[string][]catalog.Identity, len(kinds))
	err = s.db.ReadBatch(ctx, func(b *pgx.Batch) {
		for _, kind := range kinds {
			b.Queue(identitiesSQL, kind, limit)
		}
	}, func(br pgx.BatchResults) error {
		for _, kind := range kinds {
			rows, _ := br.Query()
			list, err := pgx.CollectRows(rows, scanIdentity)
			if err != nil {
				return fmt.Errorf("%s: %w", kind, err)
			}
			out[kind] = list
		}
		return nil
	})
	return out, err
}

func scanIdentity(row pgx.CollectableRow) (catalog.Identity, error) {
	var id catalog.Identity
	err := row.Scan(&id.Slug, &id.Name)
	return id, err
}

// Found is one search hit: an identity and its kind.
type Found struct {
	Kind string
	catalog.Identity
}

// Search finds hardware, engines and models (variants and bases) whose name
// or slug contains text, case-insensitively; % and _ in text are literal.
func (s *Bests) Search(ctx context.Context, text string, limit int) (_ []Found, err error) {
	defer db.Wrap(&err, "Search(%q)", text)
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	pattern := "%" + likeEscaper.Replace(text) + "%"
	slugPattern := pattern // a text without letters or digits has no slug: match names only
	if slug := catalog.Slugify(text); slug != "" {
		slugPattern = "%" + likeEscaper.Replace(slug) + "%"
	}
	rows, _ := s.db.Public().Query(ctx, `
SELECT kind, slug, name FROM identities
WHERE kind IN ('hardware', 'engine', 'model', 'model_base') AND (name ILIKE $1 OR slug ILIKE $2)
ORDER BY array_position(ARRAY['model_base', 'hardware', 'engine', 'model'], kind), length(name), lower(name)
LIMIT $3`, pattern, slugPattern, limit)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Found, error) {
		var f Found
		err := row.Scan(&f.Kind, &f.Slug, &f.Name)
		return f, err
	})
}

// likeEscaper makes text match itself in LIKE (backslash is the default escape).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Group is one combination of identities seen, with its number of runs.
type Group struct {
	ModelSlug, ModelBaseSlug, HardwareSlug, EngineSlug, EngineVersion, QuantizationSlug string
	Runs                                                                                int64
}

// groupColumn is the browse_groups column an entity page selects by.
var groupColumn = map[string]string{KindHardware: "hardware_slug", KindEngine: "engine_slug",
	KindModel: "model_slug", KindModelBase: "model_base_slug"}

// Groups returns the identity combinations seen with one identity: the
// engines and models run on a hardware, an engine's versions, a base
// model's variants.
func (s *Bests) Groups(ctx context.Context, kind, slug string) (_ []Group, err error) {
	defer db.Wrap(&err, "Groups(%s, %q)", kind, slug)
	col, ok := groupColumn[kind]
	if !ok {
		return nil, fmt.Errorf("no groups by %s", kind)
	}
	// The folded counts and the deltas not folded yet (browse_counts.go).
	rows, _ := s.db.Public().Query(ctx, `
SELECT model_slug, min(model_base_slug), hardware_slug, engine_slug, engine_version, quantization_slug, sum(runs)::bigint
FROM (`+groupCounts+` FROM browse_groups WHERE `+col+` = $1
    UNION ALL `+groupCounts+` FROM browse_count_deltas WHERE `+col+` = $1) AS g
GROUP BY `+browseGroupKey+`
ORDER BY 7 DESC, model_slug, hardware_slug, engine_slug, engine_version LIMIT 1000`, slug)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Group, error) {
		var g Group
		err := row.Scan(&g.ModelSlug, &g.ModelBaseSlug, &g.HardwareSlug, &g.EngineSlug, &g.EngineVersion,
			&g.QuantizationSlug, &g.Runs)
		return g, err
	})
}

// GridPoint is one cell of the grid: context × concurrency.
type GridPoint struct{ Context, Concurrency int }

// BestAt returns, for each grid point, the best valid total tok/s among
// the runs of one identity (kind hardware, engine, model, model_base or
// submitter), with the run that holds it; points nobody measured are left
// out. Order and ties as on the leaderboard.
func (s *Bests) BestAt(ctx context.Context, kind, slug string, points []GridPoint) (_ map[GridPoint]LeaderRow, err error) {
	defer db.Wrap(&err, "BestAt(%s, %q)", kind, slug)
	out := make(map[GridPoint]LeaderRow, len(points))
	args := []any{slug, MetricTotal}
	table, col := groupBests.name, groupColumn[kind]
	switch {
	case kind == KindSubmitter:
		// A submitter's runs do not form groups: their bests per group
		// are kept apart (submitter_best_cells, one range of its board
		// index per point), where ranking their own cells grew with them:
		// 3.0 s at a million runs for a submitter of 125,438.
		table, col = submitterBests.name, "submitter_slug"
	case col == "":
		return nil, fmt.Errorf("no bests by %s", kind)
	}
	// The best row per point first, with what it shows of its run
	// (bestShownColumns; no flagged run holds one), then the
	// names of the winners only: ranking every group's cell with its run and names
	// (DISTINCT ON over a join) grew with the number of groups, 10×
	// from 1k to 100k runs (docs/scale.md).
	sql := `SELECT b.context, b.concurrency, ` + leaderColumns + `
FROM (VALUES %s) AS p (context, concurrency)
CROSS JOIN LATERAL (SELECT b0.*, '{}'::text[] AS flags FROM ` + table + ` b0
    WHERE b0.` + col + ` = $1 AND b0.context = p.context AND b0.concurrency = p.concurrency
        AND b0.metric = $2 AND b0.status = 'valid'
    ORDER BY b0.sort_value, b0.uploaded_at, b0.run_id LIMIT 1) AS b` + leaderJoins
	var in []string
	for _, p := range points {
		args = append(args, p.Context, p.Concurrency)
		in = append(in, fmt.Sprintf("($%d::integer, $%d::integer)", len(args)-1, len(args)))
	}
	rows, _ := s.db.Public().Query(ctx, fmt.Sprintf(sql, strings.Join(in, ", ")), args...)
	defer rows.Close()
	for rows.Next() {
		var p GridPoint
		row, err := scanLeaderAt(rows, &p)
		if err != nil {
			return nil, err
		}
		out[p] = row
	}
	return out, rows.Err()
}

// scanLeaderAt scans a grid point and a LeaderRow in leaderColumns order.
func scanLeaderAt(rows pgx.Rows, p *GridPoint) (LeaderRow, error) {
	var l LeaderRow
	err := rows.Scan(append([]any{&p.Context, &p.Concurrency}, l.dest()...)...)
	l.UploadedAt = l.UploadedAt.UTC()
	return l, err
}

// IdentityNames returns the display names of slugs of one kind, by slug;
// slugs never seen are missing from the map.
func (s *Bests) IdentityNames(ctx context.Context, kind string, slugs []string) (_ map[string]string, err error) {
	defer db.Wrap(&err, "IdentityNames(%s)", kind)
	rows, _ := s.db.Public().Query(ctx, `SELECT slug, name FROM identities WHERE kind = $1 AND slug = ANY($2)`, kind, slugs)
	list, err := pgx.CollectRows(rows, scanIdentity)
	if err != nil {
		return nil, err
	}
	names := make(map[string]string, len(list))
	for _, id := range list {
		names[id.Slug] = id.Name
	}
	return names, nil
}
