package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// ErrRetired is returned when a handle belonged to an account deleted less
// than HandleQuarantine ago.
var ErrRetired = errors.New("handle retired")

// HandleQuarantine is how long a deleted account's handle stays unusable,
// so nobody can pass for its former owner while people still remember it.
const HandleQuarantine = 90 * 24 * time.Hour

// Account is a submitter who can sign in (or one made by the operator,
// with no e-mail or password).
type Account struct {
	ID           int64  `db:"id"`
	Handle       string `db:"handle"`
	Email        string `db:"email"`
	PasswordHash string `db:"password_hash"`
	Role         string `db:"role"`
	Suspended    bool   `db:"suspended"`
	// EmailVerified: the owner of Email proved it (a mailed link, or
	// GitHub's word); only then are resets mailed there.
	EmailVerified bool `db:"email_verified"`
}

// Admin reports whether the account may moderate.
func (a *Account) Admin() bool { return a != nil && a.Role == "admin" && !a.Suspended }

const accountColumns = `s.id, s.handle, coalesce(s.email, '') AS email, coalesce(s.password_hash, '') AS password_hash,
    s.role, s.suspended_at IS NOT NULL AS suspended, s.email_verified_at IS NOT NULL AS email_verified`

// CreateAccount adds a submitter who signs in with email and the argon2id
// passwordHash. A handle or e-mail address taken (in any case) is
// ErrExists; a handle retired less than HandleQuarantine ago ErrRetired;
// a handle that only looks like one of those (names.Skeleton) ErrLookalike.
func (s *Accounts) CreateAccount(ctx context.Context, handle, email, passwordHash string) (id int64, err error) {
	defer db.Wrap(&err, "CreateAccount(%q)", handle) // not the address: it is personal
	err = s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		id, err = createAccountTx(ctx, tx, NewAccount{Handle: handle, Email: email, PasswordHash: passwordHash})
		return err
	})
	return id, err
}

// NewAccount is an account to create: EmailVerified when its owner proved
// the address, Identity when it signs in with another site.
type NewAccount struct {
	Handle, Email, PasswordHash string
	EmailVerified               bool
	Identity                    *Identity
}

// CreateConfirmedAccount adds the account a, with its identity if any, in
// one transaction; errors as CreateAccount (a linked identity is ErrExists
// too).
func (s *Accounts) CreateConfirmedAccount(ctx context.Context, a NewAccount) (id int64, err error) {
	defer db.Wrap(&err, "CreateConfirmedAccount(%q)", a.Handle)
	err = s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if id, err = createAccountTx(ctx, tx, a); err != nil || a.Identity == nil {
			return err
		}
		return linkTx(ctx, tx, id, *a.Identity)
	})
	return id, err
}

func createAccountTx(ctx context.Context, tx pgx.Tx, a NewAccount) (id int64, err error) {
	c, err := lockedClash(ctx, tx, a.Handle, HandleQuarantine)
	if err != nil {
		return 0, err
	}
	if err := c.newHandleErr(); err != nil {
		return 0, err
	}
	err = tx.QueryRow(ctx, `
INSERT INTO submitters (handle, skeleton, email, password_hash, email_verified_at)
VALUES ($1, $2, nullif($3, ''), nullif($4, ''), CASE WHEN $5 THEN now() END) RETURNING id`,
		a.Handle, names.Skeleton(a.Handle), a.Email, a.PasswordHash, a.EmailVerified).Scan(&id)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return 0, ErrExists
	}
	return id, err
}

// AccountByEmail returns the account signing in with email (any case), or
// ErrNotFound.
func (s *Accounts) AccountByEmail(ctx context.Context, email string) (_ *Account, err error) {
	defer db.Wrap(&err, "AccountByEmail")
	return s.oneAccount(ctx, `WHERE lower(s.email) = lower($1)`, email)
}

// AccountByHandle returns the account of handle (any case), or ErrNotFound.
func (s *Accounts) AccountByHandle(ctx context.Context, handle string) (_ *Account, err error) {
	defer db.Wrap(&err, "AccountByHandle(%q)", handle)
	return s.oneAccount(ctx, `WHERE lower(s.handle) = lower($1)`, handle)
}

func (s *Accounts) oneAccount(ctx context.Context, where string, arg any) (*Account, error) {
	rows, _ := s.db.Pool().Query(ctx, `SELECT `+accountColumns+` FROM submitters s `+where, arg)
	a, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[Account])
	return a, db.NotFound(err)
}

// SetPassword replaces the account's password hash and ends its sessions:
// whoever knew the old password is signed out.
func (s *Accounts) SetPassword(ctx context.Context, id int64, passwordHash string) (err error) {
	defer db.Wrap(&err, "SetPassword(%d)", id)
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE submitters SET password_hash = $2 WHERE id = $1`, id, passwordHash); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE submitter_id = $1`, id)
		return err
	})
}

// DeleteAccount deletes the account: its tokens and sessions go, its runs
// stay (still marked as verified when they were), and its handle is
// retired for HandleQuarantine.
func (s *Accounts) DeleteAccount(ctx context.Context, id int64) (err error) {
	defer db.Wrap(&err, "DeleteAccount(%d)", id)
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		var handle string
		if err := tx.QueryRow(ctx, `DELETE FROM submitters WHERE id = $1 RETURNING handle`, id).Scan(&handle); err != nil {
			return db.NotFound(err)
		}
		_, err := tx.Exec(ctx, `
INSERT INTO retired_handles (handle, skeleton) VALUES (lower($1), $2)
ON CONFLICT (handle) DO UPDATE SET retired_at = now(), skeleton = EXCLUDED.skeleton`, handle, names.Skeleton(handle))
		return err
	}))
}
