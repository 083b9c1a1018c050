package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/speedmatrix/speedmatrix/internal/problem"
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

	// Two round trips in one transaction (pipelined): BEGIN and the row
	// (with the claimed-name check and the series read beside it), then
	// the source, the cells, the browse index, COMMIT and the announcement.
	var c Change
	err = s.pipelined(ctx, func(conn *pgxpool.Conn) error {
		var others []string
		var reset bool
		var epoch int64
		var err error
		id, created, others, reset, err = insertNewRunRow(ctx, conn, r, dedupeKey, uploaded, &epoch)
		if err != nil {
			return err
		}
		if !created { // nothing written
			_, err = conn.Exec(ctx, commitSQL)
			return err
		}
		// A new run has no cached page of its own yet; the lists do, and
		// so do the reports of its setup's other versions (history link).
		c = Change{Site: true, Runs: others, Reset: reset}
		b := &pgx.Batch{}
		sql, args := uploadWrites(id, source, r)
		b.Queue(sql, args...) // source, cells, names, bestLock
		u := s.bounds.startUpload(epoch)
		queueOffersAndCounts(b, []string{id}, []*run.Run{r}, []time.Time{uploaded}, u) // browse: leaderboard, groups
		if err := queueCommitAnnounce(b, c, s.name, s.read != nil); err != nil {
			return err
		}
		if err := sendCommitAnnounced(ctx, conn, b); err != nil {
			return fmt.Errorf("source, cells, browse index, commit: %w", err)
		}
		u.committed() // only now: a rolled-back offer proves nothing
		return nil
	})
	if err == nil && created {
		s.learnAfter(ctx, s.pool) // before the hooks renew anything (replica.go)
		s.publish(c)              // committed: this process's caches renew before the answer
	}
	if err != nil {
		// A failure may mean the database is not the one the bounds were
		// learned from; a refusal of the document (a problem it names)
		// says nothing of that, and must not let anyone empty them.
		if _, refused := problem.As(err); !refused {
			s.bounds.forget()
		}
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
// is settled by insertRunRow. The batch begins the transaction on conn,
// and the insert reads best_epoch into epoch (bestBounds), before the
// upload takes bestLock.
func insertNewRunRow(ctx context.Context, conn querier, r *run.Run, dedupeKey string, uploaded time.Time, epoch *int64) (id string, created bool, others []string, reset bool, err error) {
	short, _ := runIDs(dedupeKey)
	b := &pgx.Batch{}
	b.Queue(beginSQL)
	check := queueRefuseClaimed(b, r)
	member := queueRefuseNonMember(b, r)
	series := queueSeriesOf(b, r)
	sql, args := insertRun(short, dedupeKey, uploaded, r)
	b.Queue(insertRunReadingEpoch[sql], args...)
	br := conn.SendBatch(ctx, b)
	defer func() {
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	}()
	if _, err = br.Exec(); err != nil { // BEGIN
		return "", false, nil, false, err
	}
	if err = check(br); err != nil {
		return "", false, nil, false, err
	}
	if err = member(br); err != nil {
		return "", false, nil, false, err
	}
	if others, reset, err = series(br); err != nil {
		return "", false, nil, false, err
	}
	var inserted int
	if err = br.QueryRow().Scan(&inserted, epoch); err != nil {
		return "", false, nil, false, err
	}
	if inserted == 1 {
		return short, true, others, reset, nil
	}
	if err = br.Close(); err != nil {
		return "", false, nil, false, err
	}
	id, created, err = insertRunRow(ctx, conn, r, dedupeKey, uploaded)
	return id, created, others, reset, err
}

// insertRunReadingEpoch is, for each text insertRun returns, the statement
// that inserts the row and reads best_epoch (bestBounds) in one: the
// number of rows inserted (0 or 1) and the epoch. The read was a statement
// of its own; as a subquery of the insert's it is read in the same
// snapshot, still before the upload takes bestLock.
var insertRunReadingEpoch = map[string]string{
	insertRunSQL:           readingEpoch(insertRunSQL),
	insertUnverifiedRunSQL: readingEpoch(insertUnverifiedRunSQL),
}

// readingEpoch is insert (an INSERT without RETURNING) as insertRunReadingEpoch
// sends it.
func readingEpoch(insert string) string {
	return `WITH inserted AS (` + insert + ` RETURNING 1)
SELECT count(*), (SELECT epoch FROM best_epoch) FROM inserted`
}

// insertRunRow inserts the runs row under the short id, or under the long
// id when another key holds the short one. When the key itself is stored
// already it returns that run's id and created false.
func insertRunRow(ctx context.Context, tx querier, r *run.Run, dedupeKey string, uploaded time.Time) (string, bool, error) {
	short, long := runIDs(dedupeKey)
	for _, id := range []string{short, long} {
		// ON CONFLICT DO NOTHING covers both unique constraints. A
		// concurrent insert of the same key makes this statement wait for
		// that transaction and then skip the row.
		sql, args := insertRun(id, dedupeKey, uploaded, r)
		tag, err := tx.Exec(ctx, sql, args...)
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
