package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// StaleRuns reads, in one pass over the runs, oldest first: the ids of
// runs derived with other status rules than rulesVersion (rules: to be
// derived again from their source), and of runs derived under
// rulesVersion but flagged with other calculator tables than boundVersion
// (flags: to be checked again, ingest.RederiveStale). An edit of the GPU
// or model tables makes every run one of the latter; most keep their
// flags.
func (s *Store) StaleRuns(ctx context.Context, rulesVersion, boundVersion string) (rules, flags []string, err error) {
	defer db.Wrap(&err, "StaleRuns(%q, %q)", rulesVersion, boundVersion)
	rows, _ := s.db.Pool().Query(ctx, `SELECT id, rules_version <> $1 FROM runs
WHERE rules_version <> $1 OR bound_version <> $2
ORDER BY uploaded_at, id`, rulesVersion, boundVersion)
	var id string
	var ruled bool
	_, err = pgx.ForEachRow(rows, []any{&id, &ruled}, func() error {
		if ruled {
			rules = append(rules, id)
		} else {
			flags = append(flags, id)
		}
		return nil
	})
	return rules, flags, err
}

// ConfirmFlags records that the runs of ids, checked again with the
// calculator tables boundVersion names, keep the flags they have: only
// their bound version changes, so no best, count or page is renewed. A
// run whose stored flags are no longer those of flags (changed since it
// was read) is left stale, to be checked again.
func (s *Store) ConfirmFlags(ctx context.Context, boundVersion string, ids []string, flags [][]string) (err error) {
	defer db.Wrap(&err, "ConfirmFlags(%d runs)", len(ids))
	stored := make([]string, len(flags))
	for i, f := range flags {
		stored[i] = "{" + strings.Join(f, ",") + "}"
	}
	_, err = s.db.Pool().Exec(ctx, `
UPDATE runs r SET bound_version = $1
FROM unnest($2::text[], $3::text[]) AS f (id, flags)
WHERE r.id = f.id AND r.flags = f.flags::text[]`, boundVersion, ids, stored)
	return err
}

// ReplaceDerived stores a run's newly derived cells, prefill rows, grid and
// rules version in one transaction and bumps its revision, so every cached
// page and ETag of the run is renewed. The facts (hardware, engine, …) and
// the source stay as they are.
func (s *Store) ReplaceDerived(ctx context.Context, id string, r *run.Run) (err error) {
	defer db.Wrap(&err, "ReplaceDerived(%q)", id)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // it rebuilds the run's group
			return err
		}
		st := &r.Settings
		tag, err := tx.Exec(ctx, `
UPDATE runs SET rules_version = $2, revision = revision + 1,
    settings_contexts = $3, settings_concurrencies = $4, settings_prefill_contexts = $5
WHERE id = $1`, id, r.RulesVersion, st.Contexts, st.Concurrencies, st.PrefillContexts)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrNotFound
		}
		for _, table := range []string{"decode_cells", "prefill_rows"} {
			if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE run_id = $1`, id); err != nil {
				return fmt.Errorf("%s: %w", table, err)
			}
		}
		if err := copyDecodeCells(ctx, tx, id, r.Decode); err != nil {
			return fmt.Errorf("decode cells: %w", err)
		}
		if err := copyPrefillRows(ctx, tx, id, r.Prefill); err != nil {
			return err
		}
		if err := replaceRunTelemetry(ctx, tx, id, r); err != nil {
			return err
		}
		if err := setFlags(ctx, tx, []string{id}, []*run.Run{r}); err != nil {
			return fmt.Errorf("flags: %w", err)
		}
		return bests.ReindexRun(ctx, tx, id) // browse: numbers and leaderboard follow the new statuses
	}))
}
