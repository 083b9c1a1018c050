package store

import (
	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The claimed-name check refuses a run whose submitter name is declared, not
// proven (no token, no session), when that name is an account's handle in
// any case: nobody may pass for an account by typing its name. The
// refusal names the field, so every door answers 422 pointing at
// "submitter". Checked here, in the inserting transaction, because every
// door's upload ends here.
//
// queueRefuseClaimed queues the check on b, when r needs it (a declared
// name), and returns the function that reads its answer from b's results
// in turn (doing nothing when nothing was queued).
func queueRefuseClaimed(b *pgx.Batch, r *run.Run) func(pgx.BatchResults) error {
	if r.SubmitterVerified || r.Submitter == "" {
		return func(pgx.BatchResults) error { return nil }
	}
	b.Queue(`SELECT EXISTS (SELECT 1 FROM submitters WHERE lower(handle) = lower($1))`, r.Submitter)
	return func(br pgx.BatchResults) error {
		var taken bool
		if err := br.QueryRow().Scan(&taken); err != nil {
			return err
		}
		if taken {
			return problem.New(problem.Invalid, "submitter", "problem.submitter_is_account", map[string]any{"Name": r.Submitter})
		}
		return nil
	}
}
