package accounts

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// ClaimWindow is how long after an anonymous upload its browser may claim
// the run for an account, in seconds of the database's clock (24 h).
const ClaimWindow = 24 * 3600

// SetClaim stores the hash of the claim cookie given with anonymous run id.
func (s *Accounts) SetClaim(ctx context.Context, id string, hash []byte) (err error) {
	defer db.Wrap(&err, "SetClaim(%q)", id)
	_, err = s.db.Pool().Exec(ctx, `UPDATE runs SET claim_hash = $2 WHERE id = $1 AND submitter_id IS NULL`, id, hash)
	return err
}

// ClaimRun gives anonymous run id to the account when hash is its claim
// cookie's and the run is less than ClaimWindow old: the run then shows the
// account's handle, verified, and belongs to it (its page, my runs, the
// account's leaderboard). Any other case is ErrNotFound and changes
// nothing.
func (s *Accounts) ClaimRun(ctx context.Context, id string, accountID int64, hash []byte) (err error) {
	defer db.Wrap(&err, "ClaimRun(%q, %d)", id, accountID)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		var handle string
		if err := tx.QueryRow(ctx, `SELECT handle FROM submitters WHERE id = $1`, accountID).Scan(&handle); err != nil {
			return db.NotFound(err)
		}
		sub := catalog.Submitter(handle)
		// The lock order of package bests: the identities row, then
		// bestLock (the claim changes the run's submitter_slug, so it
		// rebuilds its group's bests per submitter and renews the others), then the runs row.
		_, err := tx.Exec(ctx, `INSERT INTO identities (kind, slug, name) VALUES ('submitter', $1, $2) ON CONFLICT (kind, slug) DO NOTHING`,
			sub.Slug, sub.Name)
		if err != nil {
			return err
		}
		if err := bests.LockBest(ctx, tx); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `
UPDATE runs SET submitter_id = $2, submitter = $3, submitter_verified = true, submitter_slug = $4,
    claim_hash = NULL, revision = revision + 1
WHERE id = $1 AND claim_hash = $5 AND submitter_id IS NULL AND NOT hidden
    AND uploaded_at > now() - make_interval(secs => $6)`, id, accountID, handle, sub.Slug, hash, ClaimWindow)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return db.ErrNotFound // the rollback takes the name back too
		}
		// Only the submitter changed: the group's other bests stand,
		// showing the run's new submitter where it holds one.
		return bests.RenewClaimedRun(ctx, tx, id)
	}))
}
