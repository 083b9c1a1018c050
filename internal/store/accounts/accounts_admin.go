package accounts

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// GrantAdmin makes the account handle an admin and notes it in the audit
// log as done by actor. An unknown handle is ErrNotFound.
func (s *Accounts) GrantAdmin(ctx context.Context, handle, actor string) (err error) {
	defer db.Wrap(&err, "GrantAdmin(%q)", handle)
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE submitters SET role = 'admin' WHERE lower(handle) = lower($1)`, handle)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return db.ErrNotFound
		}
		return audit(ctx, tx, actor, "grant_admin", handle, "")
	})
}

// audit adds one line to the audit log in tx.
func audit(ctx context.Context, tx pgx.Tx, actor, action, target, reason string) error {
	_, err := tx.Exec(ctx, `INSERT INTO audit_log (actor, action, target, reason) VALUES ($1, $2, $3, $4)`,
		actor, action, target, reason)
	return err
}

// AuditEntry is one line of the audit log.
type AuditEntry struct {
	At     time.Time `db:"at"`
	Actor  string    `db:"actor"`
	Action string    `db:"action"`
	Target string    `db:"target"`
	Reason string    `db:"reason"`
}

// auditLimit is how many lines /admin/audit shows, newest first.
const auditLimit = 500

// AuditLog returns the newest lines of the audit log.
func (s *Accounts) AuditLog(ctx context.Context) (_ []AuditEntry, err error) {
	defer db.Wrap(&err, "AuditLog")
	rows, _ := s.db.Pool().Query(ctx, `SELECT at, actor, action, target, reason FROM audit_log ORDER BY id DESC LIMIT $1`, auditLimit)
	return pgx.CollectRows(rows, pgx.RowToStructByName[AuditEntry])
}

// SuspendAccount suspends the account handle: its sessions end, its
// tokens stop working (TokenSubmitter answers ErrRevoked), and the act is
// logged with the moderator and the reason.
func (s *Accounts) SuspendAccount(ctx context.Context, handle, actor, reason string) (err error) {
	defer db.Wrap(&err, "SuspendAccount(%q)", handle)
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `
UPDATE submitters SET suspended_at = coalesce(suspended_at, now())
WHERE lower(handle) = lower($1) RETURNING id`, handle).Scan(&id)
		if err != nil {
			return db.NotFound(err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM sessions WHERE submitter_id = $1`, id); err != nil {
			return err
		}
		return audit(ctx, tx, actor, "suspend_account", handle, reason)
	}))
}
