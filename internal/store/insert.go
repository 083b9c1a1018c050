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

	// Four round trips, the commit included: the row (with the checks and
	// the series read beside it), the decode cells, the prefill rows, and
	// the source, browse index and announcement together.
	err = s.transactAnnounced(ctx, func(tx pgx.Tx) (Change, error) {
		var others []string
		var reset bool
		var err error
		id, created, others, reset, err = insertNewRunRow(ctx, tx, r, dedupeKey, uploaded)
		if err != nil || !created {
			return Change{}, err
		}
		if err := copyDecodeCells(ctx, tx, id, r.Decode); err != nil {
			return Change{}, fmt.Errorf("decode cells: %w", err)
		}
		if err := copyPrefillRows(ctx, tx, id, r.Prefill); err != nil {
			return Change{}, fmt.Errorf("prefill rows: %w", err)
		}
		// A new run has no cached page of its own yet; the lists do, and
		// so do the reports of its setup's other versions (history link).
		c := Change{Site: true, Runs: others, Reset: reset}
		b := &pgx.Batch{}
		b.Queue(`INSERT INTO run_sources (run_id, body) VALUES ($1, $2)`, id, source)
		queueIndexNewRuns(b, []string{id}, []*run.Run{r}) // browse: names, leaderboard, groups
		if err := queueAnnounce(b, c, s.name); err != nil {
			return Change{}, err
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return Change{}, fmt.Errorf("source, browse index: %w", err)
		}
		return c, nil
	})
	if err != nil {
		return "", false, err
	}
	if created {
		r.ID, r.UploadedAt, r.Revision = id, uploaded, 1
	}
	return id, created, nil
}

// insertNewRunRow is insertRunRow in one round trip for a document not
// stored yet, the usual upload: the claimed-name check, the read of the
// run's series (seriesRuns) and the insert under the short id go in one
// batch. A row that did not go in (the key is stored, maybe by an upload
// in flight that this one waited for, or another key holds the short id)
// is settled by insertRunRow.
func insertNewRunRow(ctx context.Context, tx pgx.Tx, r *run.Run, dedupeKey string, uploaded time.Time) (id string, created bool, others []string, reset bool, err error) {
	short, _ := runIDs(dedupeKey)
	b := &pgx.Batch{}
	check := queueRefuseClaimed(b, r)
	queueSeriesOf(b, r)
	b.Queue(insertRunSQL, runRowArgs(short, dedupeKey, uploaded, r)...)
	br := tx.SendBatch(ctx, b)
	defer func() {
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	}()
	if err = check(br); err != nil {
		return "", false, nil, false, err
	}
	if others, reset, err = seriesResult(br); err != nil {
		return "", false, nil, false, err
	}
	tag, err := br.Exec()
	if err != nil {
		return "", false, nil, false, err
	}
	if tag.RowsAffected() == 1 {
		return short, true, others, reset, nil
	}
	if err = br.Close(); err != nil {
		return "", false, nil, false, err
	}
	id, created, err = insertRunRow(ctx, tx, r, dedupeKey, uploaded)
	return id, created, others, reset, err
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
