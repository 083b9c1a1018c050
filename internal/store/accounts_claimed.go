package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// refuseClaimedAccount refuses a run whose submitter name is declared, not
// proven (no token, no session), when that name is an account's handle in
// any case: nobody may pass for an account by typing its name. The
// refusal names the field, so every door answers 422 pointing at
// "submitter". Checked here, in the inserting transaction, because every
// door's upload ends here.
func refuseClaimedAccount(ctx context.Context, tx pgx.Tx, r *run.Run) error {
	if r.SubmitterVerified || r.Submitter == "" {
		return nil
	}
	var taken bool
	err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM submitters WHERE lower(handle) = lower($1))`, r.Submitter).Scan(&taken)
	if err != nil {
		return err
	}
	if taken {
		return problem.New(problem.Invalid, "submitter", "problem.submitter_is_account", map[string]any{"Name": r.Submitter})
	}
	return nil
}
