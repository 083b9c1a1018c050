package accounts

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// ErrModerated is returned when the owner of a run a moderator hid asks
// to show it: only an admin lifts a moderation (LiftModeration).
var ErrModerated = errors.New("hidden by the moderators")

// ErrNotModerated is returned when an admin lifts a moderation from a run
// no moderator hid.
var ErrNotModerated = errors.New("not hidden by the moderators")

// moderateSQL hides run $1 as the moderator whose handle is $2 (an
// operator's name matches no account: moderated_by stays NULL) with the
// reason $3. The owner's own choice (owner_hidden) is kept for the lift.
const moderateSQL = `
UPDATE runs SET hidden = true, moderated_at = now(),
    moderated_by = (SELECT id FROM submitters WHERE lower(handle) = lower($2)),
    moderation_reason = $3, revision = revision + 1
WHERE id = $1`

// ModerateHideRun hides any run for a moderator (actor, an admin's handle
// or the operator's name) and logs who and why. The run stays hidden,
// whatever its owner does, until an admin lifts the moderation; hiding a
// moderated run again records the newer reason.
func (s *Accounts) ModerateHideRun(ctx context.Context, id, actor, reason string) (err error) {
	defer db.Wrap(&err, "ModerateHideRun(%q)", id)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // first: it rebuilds the run's group
			return err
		}
		if err := hideWith(ctx, tx, id, moderateSQL, actor, reason); err != nil {
			return err
		}
		return audit(ctx, tx, actor, "hide_run", id, reason)
	}))
}

// liftSQL ends the moderation of run $1: the run returns to its owner's
// own choice rather than to public, so a run its owner had hidden before
// (or hid since, see SetOwnRunHidden) stays hidden.
const liftSQL = `
UPDATE runs SET hidden = owner_hidden, moderated_at = NULL, moderated_by = NULL, moderation_reason = NULL,
    revision = revision + 1
WHERE id = $1 AND moderated_at IS NOT NULL
RETURNING hidden`

// LiftModeration ends a moderator's hide of run id for the admin actor,
// with the reason logged beside the hide. The run is then as its owner
// left it: public again, or still hidden when they had hidden it. A run
// no moderator hid is ErrNotModerated; none, ErrNotFound.
func (s *Accounts) LiftModeration(ctx context.Context, id, actor, reason string) (err error) {
	defer db.Wrap(&err, "LiftModeration(%q)", id)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // first: it rebuilds the run's group
			return err
		}
		var moderated bool
		err := tx.QueryRow(ctx, `SELECT moderated_at IS NOT NULL FROM runs WHERE id = $1 FOR UPDATE`, id).Scan(&moderated)
		if err != nil {
			return db.NotFound(err)
		}
		if !moderated {
			return ErrNotModerated
		}
		var hidden bool
		if err := tx.QueryRow(ctx, liftSQL, id).Scan(&hidden); err != nil {
			return err
		}
		if !hidden {
			if err := returnInTx(ctx, tx, id); err != nil {
				return err
			}
		}
		return audit(ctx, tx, actor, "unhide_run", id, reason)
	}))
}

// BackfillModerationSQL makes a hidden run whose latest hide or lift in
// the audit log is a moderator's hide moderated, by whom and why that
// line says. Migration 0026 applied it to the runs it found; a restore of
// a backup written before the moderation columns applies it again (a
// newer backup's moderated runs are moderated already, and a lifted one's
// latest line is its lift, so it changes nothing there).
const BackfillModerationSQL = `
UPDATE runs r SET owner_hidden = false, moderated_at = a.at,
    moderated_by = (SELECT s.id FROM submitters s WHERE lower(s.handle) = lower(a.actor)),
    moderation_reason = a.reason
FROM (SELECT DISTINCT ON (target) target, at, actor, action, reason
      FROM audit_log WHERE action IN ('hide_run', 'unhide_run')
      ORDER BY target, id DESC) a
WHERE a.target = r.id AND a.action = 'hide_run' AND r.hidden AND r.moderated_at IS NULL`
