package accounts

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// TokenInfo is one token as its owner's list shows it: never the secret.
type TokenInfo struct {
	Prefix     string     `db:"prefix"`
	CreatedAt  time.Time  `db:"created_at"`
	LastUsedAt *time.Time `db:"last_used_at"`
	RevokedAt  *time.Time `db:"revoked_at"`
	// Org is the slug of the organisation the token uploads for ("" for
	// the account itself).
	Org string `db:"org"`
}

// ListTokens returns the account's tokens, newest first.
func (s *Accounts) ListTokens(ctx context.Context, accountID int64) (_ []TokenInfo, err error) {
	defer db.Wrap(&err, "ListTokens(%d)", accountID)
	rows, _ := s.db.Pool().Query(ctx, `
SELECT t.prefix, t.created_at, t.last_used_at, t.revoked_at, coalesce(o.slug, '') AS org
FROM tokens t LEFT JOIN orgs o ON o.id = t.org_id
WHERE t.submitter_id = $1 ORDER BY t.created_at DESC, t.id DESC`, accountID)
	return pgx.CollectRows(rows, pgx.RowToStructByName[TokenInfo])
}

// RevokeOwnToken revokes the account's token(s) named by prefix; another
// account's token, or none, is ErrNotFound.
func (s *Accounts) RevokeOwnToken(ctx context.Context, accountID int64, prefix string) (err error) {
	defer db.Wrap(&err, "RevokeOwnToken(%d, %s…)", accountID, prefix)
	tag, err := s.db.Pool().Exec(ctx, `
UPDATE tokens SET revoked_at = coalesce(revoked_at, now()) WHERE submitter_id = $1 AND prefix = $2`, accountID, prefix)
	if err == nil && tag.RowsAffected() == 0 {
		err = db.ErrNotFound
	}
	return err
}
