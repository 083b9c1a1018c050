package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// GrantAdmin makes the account handle an admin and notes it in the audit
// log as done by actor. An unknown handle is ErrNotFound.
func (s *Store) GrantAdmin(ctx context.Context, handle, actor string) (err error) {
	defer wrap(&err, "GrantAdmin(%q)", handle)
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE submitters SET role = 'admin' WHERE lower(handle) = lower($1)`, handle)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return ErrNotFound
		}
		return audit(ctx, tx, actor, "admin.grant", handle, "")
	})
}

// audit adds one line to the audit log in tx.
func audit(ctx context.Context, tx pgx.Tx, actor, action, target, reason string) error {
	_, err := tx.Exec(ctx, `INSERT INTO audit_log (actor, action, target, reason) VALUES ($1, $2, $3, $4)`,
		actor, action, target, reason)
	return err
}
