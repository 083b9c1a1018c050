package accounts

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// ErrLastSignIn is returned when unlinking would leave an account no way
// to sign in.
var ErrLastSignIn = errors.New("the account's last way to sign in")

// Identity is an account of another site that signs in here: the provider
// ("github") and the user's id there, which stays when they rename.
type Identity struct {
	Provider, UserID string
}

// IdentityAccount returns the account that identity id signs in, or
// ErrNotFound.
func (s *Accounts) IdentityAccount(ctx context.Context, id Identity) (_ *Account, err error) {
	defer db.Wrap(&err, "IdentityAccount(%s)", id.Provider)
	rows, _ := s.db.Pool().Query(ctx, `SELECT `+accountColumns+`
FROM linked_identities i JOIN submitters s ON s.id = i.submitter_id
WHERE i.provider = $1 AND i.provider_user_id = $2`, id.Provider, id.UserID)
	a, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[Account])
	return a, db.NotFound(err)
}

// LinkIdentity lets identity id sign in the account. An identity linked
// to any account already, or a second one of the same provider, is
// ErrExists.
func (s *Accounts) LinkIdentity(ctx context.Context, accountID int64, id Identity) (err error) {
	defer db.Wrap(&err, "LinkIdentity(%d, %s)", accountID, id.Provider)
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error { return linkTx(ctx, tx, accountID, id) })
}

func linkTx(ctx context.Context, tx pgx.Tx, accountID int64, id Identity) error {
	_, err := tx.Exec(ctx, `INSERT INTO linked_identities (provider, provider_user_id, submitter_id) VALUES ($1, $2, $3)`,
		id.Provider, id.UserID, accountID)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return ErrExists
	}
	return err
}

// UnlinkIdentity removes the account's identity of provider. Without a
// password and without another identity the account could no longer sign
// in: that is ErrLastSignIn, and nothing changes. None linked is
// ErrNotFound.
func (s *Accounts) UnlinkIdentity(ctx context.Context, accountID int64, provider string) (err error) {
	defer db.Wrap(&err, "UnlinkIdentity(%d, %s)", accountID, provider)
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var others int
		var password bool
		// The account's row is locked so two unlinks cannot both pass.
		err := tx.QueryRow(ctx, `
SELECT s.password_hash IS NOT NULL,
       (SELECT count(*) FROM linked_identities i WHERE i.submitter_id = s.id AND i.provider <> $2)
FROM submitters s WHERE s.id = $1 FOR UPDATE`, accountID, provider).Scan(&password, &others)
		if err != nil {
			return db.NotFound(err)
		}
		if !password && others == 0 {
			return ErrLastSignIn
		}
		tag, err := tx.Exec(ctx, `DELETE FROM linked_identities WHERE submitter_id = $1 AND provider = $2`, accountID, provider)
		if err == nil && tag.RowsAffected() == 0 {
			return db.ErrNotFound
		}
		return err
	})
}

// AccountProviders returns the providers the account signs in with, in
// order.
func (s *Accounts) AccountProviders(ctx context.Context, accountID int64) (_ []string, err error) {
	defer db.Wrap(&err, "AccountProviders(%d)", accountID)
	rows, _ := s.db.Pool().Query(ctx, `SELECT provider FROM linked_identities WHERE submitter_id = $1 ORDER BY provider`, accountID)
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
