package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// InsertRun stores r, its source document and its cells in one transaction,
// and returns the run's id. When a run with the same dedupe key is already
// stored it stores nothing and returns that run's id with created false;
// concurrent inserts of one key are settled by the unique constraint.
//
// On success it sets r.ID, r.Revision (1) and r.UploadedAt (now, when zero;
// always cut to microseconds, as PostgreSQL keeps it).
func (s *Store) InsertRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte) (id string, created bool, err error) {
	defer db.Wrap(&err, "InsertRun(%q)", dedupeKey)
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

	// Two round trips in one transaction: BEGIN and the row (with the
	// claimed-name check and the series read beside it), then the source,
	// the cells, the browse index, COMMIT and the announcement.
	var c Change
	row := newRunRow{r: r, dedupeKey: dedupeKey, uploaded: uploaded}
	err = s.db.TransactBatch(ctx, uploadTx, row.queue, func(tx pgx.Tx, br pgx.BatchResults) error {
		if err := row.read(ctx, tx, br); err != nil {
			return err
		}
		id, created = row.id, row.created
		if !created { // nothing written
			return nil
		}
		// A new run has no cached page of its own yet; the lists do, and
		// so do the reports of its setup's other versions (history link).
		c = Change{Site: true, Runs: row.others, Reset: row.reset}
		b := &pgx.Batch{}
		u := bests.StartUpload(s.Bests, row.epoch)
		queueUpload(b, id, source, r, uploaded, u)
		if err := s.db.QueueCommitAnnounce(b, c); err != nil {
			return err
		}
		if err := db.SendCommitAnnounced(ctx, tx, b); err != nil {
			return fmt.Errorf("source, cells, browse index, commit: %w", err)
		}
		u.Committed() // only now: a rolled-back offer proves nothing
		return nil
	})
	if err == nil && created {
		s.db.PublishCommitted(ctx, c) // committed: this process's caches renew before the answer
	}
	if err != nil {
		// A failure may mean the database is not the one the bounds were
		// learned from; a refusal of the document (a problem it names)
		// says nothing of that, and must not let anyone empty them.
		if _, refused := problem.As(err); !refused {
			bests.ForgetBounds(s.Bests)
		}
		return "", false, err
	}
	if created {
		r.ID, r.UploadedAt, r.Revision = id, uploaded, 1
	}
	return id, created, nil
}

// uploadTx is an upload's transaction. It names the isolation level,
// whatever the database's default (default_transaction_isolation): the
// offers of bests rely on each statement taking its own snapshot, after
// the locks taken before it (offer_run_best_cells.sql).
var uploadTx = pgx.TxOptions{IsoLevel: pgx.ReadCommitted}

// newRunRow is InsertRun's first round trip, for a document not stored
// yet, the usual upload: the claimed-name check, the read of the run's
// series (bests.QueueSeriesOf) and the insert under the short id go in
// the batch that begins the transaction (queue). The insert reads
// best_epoch (package bests: the epoch), before the upload takes bestLock.
// A row that did not go in (the key is stored, maybe by an upload in
// flight that this one waited for, or another key holds the short id) is
// settled by insertRunRow (read).
type newRunRow struct {
	r         *run.Run
	dedupeKey string
	uploaded  time.Time

	check, member func(pgx.BatchResults) error
	series        func(pgx.BatchResults) ([]string, bool, error)

	// What read found: the run's id, whether it was stored now, the other
	// runs of its series and whether they are too many to name, and the
	// epoch of the stored bests.
	id      string
	created bool
	others  []string
	reset   bool
	epoch   int64
}

// queue queues the first batch's statements on b, after BEGIN.
func (n *newRunRow) queue(b *pgx.Batch) {
	n.check = accounts.QueueRefuseClaimed(b, n.r)
	n.member = accounts.QueueRefuseNonMember(b, n.r)
	n.series = bests.QueueSeriesOf(b, n.r)
	short, _ := runIDs(n.dedupeKey)
	sql, args := insertRun(short, n.dedupeKey, n.uploaded, n.r)
	b.Queue(sql, args...)
}

// read reads the first batch's results from br and closes it, then
// settles a row that did not go in on tx.
func (n *newRunRow) read(ctx context.Context, tx pgx.Tx, br pgx.BatchResults) (err error) {
	defer func() {
		if cerr := br.Close(); err == nil {
			err = cerr
		}
	}()
	if err = n.check(br); err != nil {
		return err
	}
	if err = n.member(br); err != nil {
		return err
	}
	if n.others, n.reset, err = n.series(br); err != nil {
		return err
	}
	err = br.QueryRow().Scan(&n.epoch)
	if err == nil {
		n.id, _ = runIDs(n.dedupeKey)
		n.created = true
		return nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	if err = br.Close(); err != nil {
		return err
	}
	n.id, n.created, n.epoch, err = insertRunRow(ctx, tx, n.r, n.dedupeKey, n.uploaded)
	return err
}

// insertRunRow inserts the runs row under the short id, or under the long
// id when another key holds the short one, and returns the epoch the
// insert read (insert_run.sql). When the key itself is stored already it
// returns that run's id and created false.
func insertRunRow(ctx context.Context, tx pgx.Tx, r *run.Run, dedupeKey string, uploaded time.Time) (id string, created bool, epoch int64, err error) {
	short, long := runIDs(dedupeKey)
	for _, id := range []string{short, long} {
		// ON CONFLICT DO NOTHING covers both unique constraints. A
		// concurrent insert of the same key makes this statement wait for
		// that transaction and then skip the row.
		sql, args := insertRun(id, dedupeKey, uploaded, r)
		err := tx.QueryRow(ctx, sql, args...).Scan(&epoch)
		if err == nil {
			return id, true, epoch, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return "", false, 0, err
		}
		var existing string
		err = tx.QueryRow(ctx, `SELECT id FROM runs WHERE dedupe_key = $1`, dedupeKey).Scan(&existing)
		if err == nil {
			return existing, false, 0, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return "", false, 0, err
		}
		// The id belongs to another dedupe key: try the long id.
	}
	return "", false, 0, fmt.Errorf("id %s taken by another dedupe key", long)
}
