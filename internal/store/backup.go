package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
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

// EachRun calls fn with every stored run of the snapshot, hidden ones
// included, oldest first. Sources are read a row at a time, never all at
// once.
func (b *BackupSnapshot) EachRun(ctx context.Context, fn func(BackupRun) error) (err error) {
	defer db.Wrap(&err, "EachRun")
	rows, err := b.tx.Query(ctx, selectBackupSQL)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r BackupRun
		if r.Run, err = scanRun(extraRow{rows, []any{&r.DedupeKey, &r.Hidden, &r.Source}}); err != nil {
			return err
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// EachBackupRun calls fn with every stored run as EachRun does, in a
// snapshot of its own.
func (s *Store) EachBackupRun(ctx context.Context, fn func(BackupRun) error) error {
	return s.Snapshot(ctx, func(b *BackupSnapshot) error { return b.EachRun(ctx, fn) })
}

// RestoreRun stores a run derived again from a backup under its own id,
// dedupe key, upload time and time of its last edit (r.ID, r.UploadedAt,
// r.EditedAt), hidden when it was, in one transaction. An id or key
// already stored is an error: restore fills an empty database.
func (s *Store) RestoreRun(ctx context.Context, r *run.Run, dedupeKey string, source []byte, hidden bool) (err error) {
	defer db.Wrap(&err, "RestoreRun(%q)", r.ID)
	uploaded := r.UploadedAt.UTC().Truncate(time.Microsecond)
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		sql, args := insertRun(r.ID, dedupeKey, uploaded, r)
		tag, err := tx.Exec(ctx, sql, args...)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("run %s or its dedupe key is stored already", r.ID)
		}
		if r.EditedAt != nil {
			if _, err := tx.Exec(ctx, `UPDATE runs SET edited_at = $2 WHERE id = $1`, r.ID, r.EditedAt); err != nil {
				return fmt.Errorf("edited_at: %w", err)
			}
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
		if err := replaceRunTelemetry(ctx, tx, r.ID, r); err != nil {
			return err
		}
		if err := bests.IndexRun(ctx, tx, r.ID, r, r.UploadedAt); err != nil {
			return err
		}
		if !hidden {
			return nil
		}
		if err := bests.LockBest(ctx, tx); err != nil {
			return err
		}
		return accounts.HideInTx(ctx, tx, r.ID)
	})
}
