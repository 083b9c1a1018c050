package accounts

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// CreateSession stores a session of the account, by the hash of its
// secret, valid until expires.
func (s *Accounts) CreateSession(ctx context.Context, accountID int64, hash []byte, expires time.Time) (err error) {
	defer db.Wrap(&err, "CreateSession(%d)", accountID)
	_, err = s.db.Pool().Exec(ctx, `INSERT INTO sessions (hash, submitter_id, expires_at) VALUES ($1, $2, $3)`,
		hash, accountID, expires)
	return err
}

// SessionAccount returns the account of the live session with this hash.
// An unknown or expired session, or one of a suspended account, is
// ErrNotFound: a suspension signs its holder out at once.
func (s *Accounts) SessionAccount(ctx context.Context, hash []byte) (_ *Account, err error) {
	defer db.Wrap(&err, "SessionAccount") // no arguments: the hash is of a secret
	rows, _ := s.db.Pool().Query(ctx, `SELECT `+accountColumns+`
FROM sessions x JOIN submitters s ON s.id = x.submitter_id
WHERE x.hash = $1 AND x.expires_at > now() AND s.suspended_at IS NULL`, hash)
	a, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[Account])
	return a, db.NotFound(err)
}

// DeleteSession ends one session (signing out); an unknown one is no error.
func (s *Accounts) DeleteSession(ctx context.Context, hash []byte) (err error) {
	defer db.Wrap(&err, "DeleteSession")
	_, err = s.db.Pool().Exec(ctx, `DELETE FROM sessions WHERE hash = $1 OR expires_at < now()`, hash)
	return err
}

// DeleteSessions ends every session of the account ("sign out
// everywhere") and returns how many there were.
func (s *Accounts) DeleteSessions(ctx context.Context, accountID int64) (n int64, err error) {
	defer db.Wrap(&err, "DeleteSessions(%d)", accountID)
	tag, err := s.db.Pool().Exec(ctx, `DELETE FROM sessions WHERE submitter_id = $1`, accountID)
	return tag.RowsAffected(), err
}

// CreateReset stores a one-time password reset of the account handle, by
// the hash of its secret, valid until expires. An unknown handle is
// ErrNotFound.
func (s *Accounts) CreateReset(ctx context.Context, handle string, hash []byte, expires time.Time) (err error) {
	defer db.Wrap(&err, "CreateReset(%q)", handle)
	tag, err := s.db.Pool().Exec(ctx, `
INSERT INTO password_resets (hash, submitter_id, expires_at)
SELECT $1, id, $3 FROM submitters WHERE lower(handle) = lower($2)`, hash, handle, expires)
	if err == nil && tag.RowsAffected() == 0 {
		err = db.ErrNotFound
	}
	return err
}

// ResetAccount returns the account whose unused, unexpired reset has this
// hash, or ErrNotFound.
func (s *Accounts) ResetAccount(ctx context.Context, hash []byte) (_ *Account, err error) {
	defer db.Wrap(&err, "ResetAccount")
	rows, _ := s.db.Pool().Query(ctx, `SELECT `+accountColumns+`
FROM password_resets x JOIN submitters s ON s.id = x.submitter_id
WHERE x.hash = $1 AND x.expires_at > now() AND x.used_at IS NULL`, hash)
	a, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[Account])
	return a, db.NotFound(err)
}

// UseReset spends the reset with this hash, setting the account's password
// hash and ending its sessions; a used, expired or unknown reset is
// ErrNotFound and changes nothing.
func (s *Accounts) UseReset(ctx context.Context, hash []byte, passwordHash string) (err error) {
	defer db.Wrap(&err, "UseReset")
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `
UPDATE password_resets SET used_at = now()
WHERE hash = $1 AND expires_at > now() AND used_at IS NULL RETURNING submitter_id`, hash).Scan(&id)
		if err != nil {
			return db.NotFound(err)
		}
		if _, err := tx.Exec(ctx, `UPDATE submitters SET password_hash = $2 WHERE id = $1`, id, passwordHash); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM sessions WHERE submitter_id = $1`, id)
		return err
	})
}
