package accounts

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// PendingSignup is an account not made yet: an e-mail sign-up awaiting
// its address's confirmation (Handle, Email, PasswordHash), or a GitHub
// sign-up awaiting a handle (Email, when verified there, and Identity).
type PendingSignup struct {
	Handle       string `db:"handle"`
	Email        string `db:"email"`
	PasswordHash string `db:"password_hash"`
	Provider     string `db:"provider"`
	UserID       string `db:"provider_user_id"`
}

// CreatePendingSignup stores p by the hash of its link's secret, valid
// until expires.
func (s *Accounts) CreatePendingSignup(ctx context.Context, hash []byte, p PendingSignup, expires time.Time) (err error) {
	defer db.Wrap(&err, "CreatePendingSignup(%q)", p.Handle)
	_, err = s.db.Pool().Exec(ctx, `
INSERT INTO pending_signups (hash, handle, email, password_hash, provider, provider_user_id, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, hash, p.Handle, p.Email, p.PasswordHash, p.Provider, p.UserID, expires)
	return err
}

// PendingSignupByHash returns the unexpired pending sign-up with this
// hash, or ErrNotFound, leaving it in place.
func (s *Accounts) PendingSignupByHash(ctx context.Context, hash []byte) (_ *PendingSignup, err error) {
	defer db.Wrap(&err, "PendingSignupByHash")
	rows, _ := s.db.Pool().Query(ctx, `
SELECT handle, email, password_hash, provider, provider_user_id FROM pending_signups
WHERE hash = $1 AND expires_at > now()`, hash)
	p, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[PendingSignup])
	return p, db.NotFound(err)
}

// TakePendingSignup returns and spends the unexpired pending sign-up with
// this hash (forgetting every expired one too), or ErrNotFound: a link
// works once.
func (s *Accounts) TakePendingSignup(ctx context.Context, hash []byte) (_ *PendingSignup, err error) {
	defer db.Wrap(&err, "TakePendingSignup")
	if _, err := s.db.Pool().Exec(ctx, `DELETE FROM pending_signups WHERE expires_at < now()`); err != nil {
		return nil, err
	}
	rows, _ := s.db.Pool().Query(ctx, `DELETE FROM pending_signups WHERE hash = $1
RETURNING handle, email, password_hash, provider, provider_user_id`, hash)
	p, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[PendingSignup])
	return p, db.NotFound(err)
}

// CreateEmailConfirmation stores a link that confirms the account's
// address email, by the hash of its secret, valid until expires.
func (s *Accounts) CreateEmailConfirmation(ctx context.Context, accountID int64, email string, hash []byte, expires time.Time) (err error) {
	defer db.Wrap(&err, "CreateEmailConfirmation(%d)", accountID)
	_, err = s.db.Pool().Exec(ctx, `INSERT INTO email_confirmations (hash, submitter_id, email, expires_at) VALUES ($1, $2, $3, $4)`,
		hash, accountID, email, expires)
	return err
}

// ConfirmEmail spends the confirmation with this hash and marks the
// account's address confirmed, when it is still the address the link was
// mailed to. An unknown, expired or stale link is ErrNotFound.
func (s *Accounts) ConfirmEmail(ctx context.Context, hash []byte) (err error) {
	defer db.Wrap(&err, "ConfirmEmail")
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var id int64
		var email string
		err := tx.QueryRow(ctx, `DELETE FROM email_confirmations WHERE hash = $1 AND expires_at > now()
RETURNING submitter_id, email`, hash).Scan(&id, &email)
		if err != nil {
			return db.NotFound(err)
		}
		tag, err := tx.Exec(ctx, `UPDATE submitters SET email_verified_at = coalesce(email_verified_at, now())
WHERE id = $1 AND lower(email) = lower($2)`, id, email)
		if err == nil && tag.RowsAffected() == 0 {
			return db.ErrNotFound
		}
		return err
	})
}

// HandleAvailable is nil when handle could be taken now, as CreateAccount
// would: no submitter or organisation has it in any case (ErrExists), it
// was not retired less than HandleQuarantine ago (ErrRetired), and it does
// not look like any of those (ErrLookalike).
func (s *Accounts) HandleAvailable(ctx context.Context, handle string) (err error) {
	defer db.Wrap(&err, "HandleAvailable(%q)", handle)
	c, err := clashOf(ctx, s.db.Pool(), handle, HandleQuarantine)
	if err != nil {
		return err
	}
	return c.newHandleErr()
}
