package accounts

import (
	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The claimed-name check refuses a run whose submitter name is declared, not
// proven (no token, no session), when that name is, or looks like
// (names.Skeleton: "аlice" with a Cyrillic а, "ａｌｉｃｅ", "alice" with a
// zero-width space), an account's handle, an organisation's slug or a
// handle retired less than HandleQuarantine ago: nobody may pass for an
// account or an organisation by typing its name. The refusal names the
// field, so every door answers 422 pointing at "submitter". Checked here,
// in the inserting transaction, because every door's upload ends here.
//
// QueueRefuseClaimed queues the check on b, when r needs it (a declared
// name), and returns the function that reads its answer from b's results
// in turn (doing nothing when nothing was queued).
func QueueRefuseClaimed(b *pgx.Batch, r *run.Run) func(pgx.BatchResults) error {
	if r.SubmitterVerified || r.Submitter == "" {
		return func(pgx.BatchResults) error { return nil }
	}
	b.Queue(nameClashSQL, r.Submitter, names.Skeleton(r.Submitter), HandleQuarantine.Seconds())
	return func(br pgx.BatchResults) error {
		var c nameClash
		if err := br.QueryRow().Scan(&c.handle, &c.org, &c.retired, &c.lookalike); err != nil {
			return err
		}
		switch {
		case c.handle:
			return problem.New(problem.Invalid, "submitter", "problem.submitter_is_account", map[string]any{"Name": r.Submitter})
		case c.org || c.retired || c.lookalike:
			return problem.New(problem.Invalid, "submitter", "problem.submitter_looks_taken", map[string]any{"Name": r.Submitter})
		}
		return nil
	}
}
