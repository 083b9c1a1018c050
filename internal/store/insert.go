package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// InsertRun stores r, its source document and its cells in one transaction,
// and returns the run's id. When a run with the same dedupe key is already
// stored it stores nothing and returns that run's id with created false;
// concurrent inserts of one key are settled by the unique constraint.
//
// On success it sets r.ID, r.Revision (1) and r.UploadedAt (now, when zero;
// always cut to microseconds, as PostgreSQL keeps it).
func (s *Store) InsertRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte) (id string, created bool, err error) {
	defer wrap(&err, "InsertRun(%q)", dedupeKey)
	if dedupeKey == "" {
		return "", false, errors.New("empty dedupe key")
	}
	if source == nil {
		source = []byte{} // body is NOT NULL; nil would be sent as NULL
	}
	uploaded := r.UploadedAt
	if uploaded.IsZero() {
		uploaded = time.Now()
	}
	uploaded = uploaded.UTC().Truncate(time.Microsecond)

	err = s.transactChange(ctx, func(tx pgx.Tx) (Change, error) {
		if err := refuseClaimedAccount(ctx, tx, r); err != nil {
			return Change{}, err
		}
		var err error
		id, created, err = insertRunRow(ctx, tx, r, dedupeKey, uploaded)
		if err != nil || !created {
			return Change{}, err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO run_sources (run_id, body) VALUES ($1, $2)`, id, source); err != nil {
			return Change{}, fmt.Errorf("source: %w", err)
		}
		if err := copyDecodeCells(ctx, tx, id, r.Decode); err != nil {
			return Change{}, fmt.Errorf("decode cells: %w", err)
		}
		if err := copyPrefillRows(ctx, tx, id, r.Prefill); err != nil {
			return Change{}, fmt.Errorf("prefill rows: %w", err)
		}
		if err := indexNewRuns(ctx, tx, []string{id}, []*run.Run{r}); err != nil { // browse: slugs, numbers, leaderboard
			return Change{}, err
		}
		// A new run has no cached page of its own yet; the lists do, and
		// so do the reports of its setup's other versions (history link).
		others, reset, err := seriesRuns(ctx, tx, id)
		return Change{Site: true, Runs: others, Reset: reset}, err
	})
	if err != nil {
		return "", false, err
	}
	if created {
		r.ID, r.UploadedAt, r.Revision = id, uploaded, 1
	}
	return id, created, nil
}

// insertRunRow inserts the runs row under the short id, or under the long
// id when another key holds the short one. When the key itself is stored
// already it returns that run's id and created false.
func insertRunRow(ctx context.Context, tx pgx.Tx, r *run.Run, dedupeKey string, uploaded time.Time) (string, bool, error) {
	short, long := runIDs(dedupeKey)
	for _, id := range []string{short, long} {
		// ON CONFLICT DO NOTHING covers both unique constraints. A
		// concurrent insert of the same key makes this statement wait for
		// that transaction and then skip the row.
		tag, err := tx.Exec(ctx, insertRunSQL, runRowArgs(id, dedupeKey, uploaded, r)...)
		if err != nil {
			return "", false, err
		}
		if tag.RowsAffected() == 1 {
			return id, true, nil
		}
		var existing string
		err = tx.QueryRow(ctx, `SELECT id FROM runs WHERE dedupe_key = $1`, dedupeKey).Scan(&existing)
		if err == nil {
			return existing, false, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return "", false, err
		}
		// The id belongs to another dedupe key: try the long id.
	}
	return "", false, fmt.Errorf("id %s taken by another dedupe key", long)
}
