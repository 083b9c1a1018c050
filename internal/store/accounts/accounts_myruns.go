package accounts

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// OwnRun is one run in its owner's list (/account/runs), hidden ones too.
type OwnRun struct {
	ID         string     `db:"id"`
	UploadedAt time.Time  `db:"uploaded_at"`
	Hidden     bool       `db:"hidden"`
	EditedAt   *time.Time `db:"edited_at"`
	ModelID    string     `db:"model_id"`
	GPUName    string     `db:"hardware_gpu_name"`
	GPUCount   int        `db:"hardware_gpu_count"`
	EngineName string     `db:"engine_name"`
	Version    string     `db:"engine_version"`
	// Moderated is set when a moderator hid the run, with their reason:
	// its owner cannot show it again.
	Moderated        bool   `db:"moderated"`
	ModerationReason string `db:"moderation_reason"`
}

// ownRunsLimit bounds the list; a person with more runs than this finds
// the rest on their public page.
const ownRunsLimit = 500

// ListOwnRuns returns the runs uploaded by the account, newest first.
func (s *Accounts) ListOwnRuns(ctx context.Context, accountID int64) (_ []OwnRun, err error) {
	defer db.Wrap(&err, "ListOwnRuns(%d)", accountID)
	rows, _ := s.db.Pool().Query(ctx, `
SELECT id, uploaded_at, hidden, edited_at, model_id, hardware_gpu_name, hardware_gpu_count, engine_name, engine_version,
    moderated_at IS NOT NULL AS moderated, coalesce(moderation_reason, '') AS moderation_reason
FROM runs WHERE submitter_id = $1 ORDER BY uploaded_at DESC, id DESC LIMIT $2`, accountID, ownRunsLimit)
	return pgx.CollectRows(rows, pgx.RowToStructByName[OwnRun])
}

// SetOwnRunHidden hides or shows again a run of the account. Another's
// run, an anonymous one, or none is ErrNotOwner / ErrNotFound. A run a
// moderator hid is ErrModerated when shown and stays hidden; hiding it
// only records the owner's wish, kept when the moderation is lifted.
func (s *Accounts) SetOwnRunHidden(ctx context.Context, id string, accountID int64, hidden bool) (err error) {
	defer db.Wrap(&err, "SetOwnRunHidden(%q, %d, %v)", id, accountID, hidden)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // first: it rebuilds the run's group
			return err
		}
		var owner *int64
		var ownerHidden, moderated bool
		err := tx.QueryRow(ctx, `SELECT submitter_id, owner_hidden, moderated_at IS NOT NULL FROM runs WHERE id = $1 FOR UPDATE`,
			id).Scan(&owner, &ownerHidden, &moderated)
		if err != nil {
			return db.NotFound(err)
		}
		switch {
		case owner == nil || *owner != accountID:
			return ErrNotOwner
		case moderated && !hidden:
			return ErrModerated
		case ownerHidden == hidden:
			return nil
		case hidden:
			return HideInTx(ctx, tx, id)
		}
		return showInTx(ctx, tx, id)
	}))
}

// showOwnSQL is the owner's show. Its WHERE leaves a moderated run
// alone whatever the caller checked: no path of the owner's can make one
// public.
const showOwnSQL = `UPDATE runs SET hidden = false, owner_hidden = false, revision = revision + 1
WHERE id = $1 AND moderated_at IS NULL`

// showInTx makes run id, hidden by its owner, visible again: back in its
// group's count and among its bests. The caller holds LockBest. A run a
// moderator hid is ErrModerated, unchanged.
func showInTx(ctx context.Context, tx pgx.Tx, id string) error {
	tag, err := tx.Exec(ctx, showOwnSQL, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return ErrModerated
	}
	return returnInTx(ctx, tx, id)
}

// returnInTx puts run id, just made visible, back in its group's count
// and among its bests. The caller holds LockBest.
func returnInTx(ctx context.Context, tx pgx.Tx, id string) error {
	if err := bests.CountRun(ctx, tx, id, 1); err != nil {
		return err
	}
	return bests.RebuildGroup(ctx, tx, id)
}

// RunGone reports whether run id was deleted by its submitter, so its
// address answers 410 Gone rather than 404.
func (s *Accounts) RunGone(ctx context.Context, id string) (gone bool, err error) {
	defer db.Wrap(&err, "RunGone(%q)", id)
	err = s.db.Pool().QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM deleted_runs WHERE id = $1)`, id).Scan(&gone)
	return gone, err
}

// DeleteOwnRun deletes a run of the account from /account/runs, hidden or
// not (hiding first is how people take a run down while they decide). Its
// address then answers 410 Gone.
func (s *Accounts) DeleteOwnRun(ctx context.Context, id string, accountID int64) (err error) {
	defer db.Wrap(&err, "DeleteOwnRun(%q, %d)", id, accountID)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // first: it rebuilds the run's group
			return err
		}
		var owner *int64
		err := tx.QueryRow(ctx, `SELECT submitter_id FROM runs WHERE id = $1 FOR UPDATE`, id).Scan(&owner)
		if err != nil {
			return db.NotFound(err)
		}
		if owner == nil || *owner != accountID {
			return ErrNotOwner
		}
		if err := HideInTx(ctx, tx, id); err != nil { // leaves its group's count and bests
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM runs WHERE id = $1`, id); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO deleted_runs (id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
		return err
	}))
}

// EditOwnRun sets the editable metadata of a run of the account and notes
// when; the stored file is untouched. The revision moves so no cached page
// outlives the edit.
func (s *Accounts) EditOwnRun(ctx context.Context, id string, accountID int64, e run.MetaEdit) (err error) {
	defer db.Wrap(&err, "EditOwnRun(%q, %d)", id, accountID)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
UPDATE runs SET hardware_os = $3, hardware_driver = $4, engine_backend = $5, engine_build = $6,
    engine_launch_command = $7, model_served_name = $8, model_revision = $9,
    edited_at = now(), revision = revision + 1
WHERE id = $1 AND submitter_id = $2 AND NOT hidden`,
			id, accountID, e.OS, e.Driver, e.Backend, e.Build, e.LaunchCommand, e.ServedModel, e.Revision)
		if err == nil && tag.RowsAffected() == 0 {
			err = ErrNotOwner
		}
		return err
	}))
}
