package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// BackupRun is a stored run as a backup keeps it: its header (every fact,
// no cells: those are derived again from the source on restore), how it is
// identified, whether it is hidden, and the uploaded bytes.
type BackupRun struct {
	Run       *run.Run
	DedupeKey string
	Hidden    bool
	Source    []byte
}

const selectBackupSQL = `
SELECT id,` + runColumns + `, edited_at, dedupe_key, hidden, body
FROM runs JOIN run_sources ON run_id = id
ORDER BY uploaded_at, id`

// extraRow scans a runs row with more columns after scanRun's.
type extraRow struct {
	pgx.Row
	extra []any
}

func (r extraRow) Scan(dest ...any) error { return r.Row.Scan(append(dest, r.extra...)...) }

// EachBackupRun calls fn with every stored run, hidden ones included,
// oldest first, all read in one snapshot so a backup taken while uploads
// arrive is consistent. Sources are read a row at a time, never all at once.
func (s *Store) EachBackupRun(ctx context.Context, fn func(BackupRun) error) (err error) {
	defer wrap(&err, "EachBackupRun")
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	return s.transact(ctx, opts, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, selectBackupSQL)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var b BackupRun
			if b.Run, err = scanRun(extraRow{rows, []any{&b.DedupeKey, &b.Hidden, &b.Source}}); err != nil {
				return err
			}
			if err := fn(b); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

// RestoreRun stores a run derived again from a backup under its own id,
// dedupe key and upload time (r.ID, r.UploadedAt), hidden when it was, in
// one transaction. An id or key already stored is an error: restore fills
// an empty database.
func (s *Store) RestoreRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte, hidden bool) (err error) {
	defer wrap(&err, "RestoreRun(%q)", r.ID)
	uploaded := r.UploadedAt.UTC().Truncate(time.Microsecond)
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, insertRunSQL, runRowArgs(r.ID, dedupeKey, uploaded, r)...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("run %s or its dedupe key is stored already", r.ID)
		}
		if source == nil {
			source = []byte{}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO run_sources (run_id, body) VALUES ($1, $2)`, r.ID, source); err != nil {
			return fmt.Errorf("source: %w", err)
		}
		if err := copyDecodeCells(ctx, tx, r.ID, r.Decode); err != nil {
			return fmt.Errorf("decode cells: %w", err)
		}
		if err := copyPrefillRows(ctx, tx, r.ID, r.Prefill); err != nil {
			return fmt.Errorf("prefill rows: %w", err)
		}
		if err := indexNewRuns(ctx, tx, []string{r.ID}, []*run.Run{r}); err != nil {
			return err
		}
		if !hidden {
			return nil
		}
		if err := lockBest(ctx, tx); err != nil {
			return err
		}
		return hideInTx(ctx, tx, r.ID)
	})
}
