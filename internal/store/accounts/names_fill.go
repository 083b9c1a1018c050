package accounts

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// skeletonTable is a table of names of people and the statements that read
// the names lacking a skeleton (all of them with $1 true) and write the
// skeletons computed, by key.
type skeletonTable struct{ read, write string }

var skeletonTables = []skeletonTable{
	{`SELECT id::text, handle FROM submitters WHERE $1 OR skeleton IS NULL ORDER BY id`,
		`UPDATE submitters t SET skeleton = u.skeleton
FROM unnest($1::text[], $2::text[]) AS u(key, skeleton) WHERE t.id = u.key::bigint`},
	{`SELECT id::text, slug FROM orgs WHERE $1 OR skeleton IS NULL ORDER BY id`,
		`UPDATE orgs t SET skeleton = u.skeleton
FROM unnest($1::text[], $2::text[]) AS u(key, skeleton) WHERE t.id = u.key::bigint`},
	{`SELECT handle, handle FROM retired_handles WHERE $1 OR skeleton IS NULL ORDER BY handle`,
		`UPDATE retired_handles t SET skeleton = u.skeleton
FROM unnest($1::text[], $2::text[]) AS u(key, skeleton) WHERE t.handle = u.key`},
}

// BackfillSkeletons gives every handle, organisation slug and retired
// handle its skeleton: the rows that lack one (all of them right after
// migration 0027, rows of a restore), or every row when the stored
// skeletons were computed by another names.Version. store.Migrate calls it after
// the schema migrations, under its lock. It is idempotent, and cheap when
// there is nothing to do: one look at the version and an index scan for
// the rows lacking a skeleton.
func BackfillSkeletons(ctx context.Context, databaseURL string) (err error) {
	defer db.Wrap(&err, "BackfillSkeletons")
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error { return fillSkeletons(ctx, tx, false) })
}

// fillSkeletons computes the skeletons missing, or all of them when all is
// set or the stored version is not names.Version, and records the version.
func fillSkeletons(ctx context.Context, tx pgx.Tx, all bool) error {
	var version string
	err := tx.QueryRow(ctx, `SELECT version FROM skeleton_version`).Scan(&version)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	all = all || version != names.Version
	for _, t := range skeletonTables {
		rows, _ := tx.Query(ctx, t.read, all)
		var keys, skeletons []string
		var key, name string
		_, err := pgx.ForEachRow(rows, []any{&key, &name}, func() error {
			keys, skeletons = append(keys, key), append(skeletons, names.Skeleton(name))
			return nil
		})
		if err != nil {
			return err
		}
		if len(keys) == 0 {
			continue
		}
		if _, err := tx.Exec(ctx, t.write, keys, skeletons); err != nil {
			return err
		}
	}
	if !all {
		return nil
	}
	_, err = tx.Exec(ctx, `INSERT INTO skeleton_version (version) VALUES ($1)
ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version`, names.Version)
	return err
}

// RefillSkeletons computes every stored skeleton again in tx, whatever
// version they were computed with: a restore ends with it, since a backup
// may hold skeletons of another names.Version, or none.
func RefillSkeletons(ctx context.Context, tx pgx.Tx) error { return fillSkeletons(ctx, tx, true) }
