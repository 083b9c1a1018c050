package accounts

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// orgRole locks the organisation slug's member rows, so two owners acting
// at once cannot both step away from it, and returns its id and the
// actor's role ("" for a non-member). An unknown slug is ErrNotFound.
func orgRole(ctx context.Context, tx pgx.Tx, slug string, actorID int64) (orgID int64, role string, err error) {
	if err := tx.QueryRow(ctx, `SELECT id FROM orgs WHERE lower(slug) = lower($1) FOR UPDATE`, slug).Scan(&orgID); err != nil {
		return 0, "", db.NotFound(err)
	}
	err = tx.QueryRow(ctx, `SELECT coalesce((SELECT role FROM org_members WHERE org_id = $1 AND submitter_id = $2), '')`,
		orgID, actorID).Scan(&role)
	return orgID, role, err
}

// ownerAct is orgRole for what only owners may do: a member is
// ErrNotOrgOwner, anyone else ErrNotMember.
func ownerAct(ctx context.Context, tx pgx.Tx, slug string, actorID int64) (int64, error) {
	orgID, role, err := orgRole(ctx, tx, slug, actorID)
	switch {
	case err != nil:
		return 0, err
	case role == "":
		return 0, ErrNotMember
	case role != RoleOwner:
		return 0, ErrNotOrgOwner
	}
	return orgID, nil
}

// ownerActOn is ownerAct for what an owner does to the account handle
// (invite, withdraw, make an owner): the organisation's id and the
// account's, or ownerAct's errors, or ErrNotFound for an unknown handle.
func ownerActOn(ctx context.Context, tx pgx.Tx, slug string, actorID int64, handle string) (orgID, id int64, err error) {
	if orgID, err = ownerAct(ctx, tx, slug, actorID); err != nil {
		return 0, 0, err
	}
	id, err = submitterID(ctx, tx, handle)
	return orgID, id, err
}

// submitterID is the id of the account handle (any case), or ErrNotFound.
func submitterID(ctx context.Context, tx pgx.Tx, handle string) (id int64, err error) {
	err = tx.QueryRow(ctx, `SELECT id FROM submitters WHERE lower(handle) = lower($1)`, handle).Scan(&id)
	return id, db.NotFound(err)
}

// InviteMember invites the account handle into the organisation slug on
// behalf of the owner actorID. The invitee is not a member until they
// accept (AnswerInvite). A member, or someone invited already, is
// ErrExists; an unknown handle ErrNotFound; an actor who is no owner
// ErrNotOrgOwner (or ErrNotMember).
func (s *Accounts) InviteMember(ctx context.Context, actorID int64, slug, handle string) (err error) {
	defer db.Wrap(&err, "InviteMember(%d, %q, %q)", actorID, slug, handle)
	// Nothing public changes until the invitation is accepted.
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		orgID, id, err := ownerActOn(ctx, tx, slug, actorID, handle)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `
INSERT INTO org_invites (org_id, submitter_id, invited_by)
SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM org_members WHERE org_id = $1 AND submitter_id = $2)
ON CONFLICT DO NOTHING`, orgID, id, actorID)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrExists
		}
		return err
	})
}

// WithdrawInvite takes back the invitation of the account handle into the
// organisation slug, on behalf of the owner actorID, before it is
// answered. No invitation pending for handle is ErrNotInvited; an unknown
// handle ErrNotFound; an actor who is no owner ErrNotOrgOwner (or
// ErrNotMember).
func (s *Accounts) WithdrawInvite(ctx context.Context, actorID int64, slug, handle string) (err error) {
	defer db.Wrap(&err, "WithdrawInvite(%d, %q, %q)", actorID, slug, handle)
	// Nothing public changes: an invitation was never a membership.
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		orgID, id, err := ownerActOn(ctx, tx, slug, actorID, handle)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM org_invites WHERE org_id = $1 AND submitter_id = $2`, orgID, id)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrNotInvited
		}
		return err
	})
}

// AnswerInvite accepts (the account becomes a member) or declines (the
// invitation is gone, and nothing else changes) the account's invitation
// into the organisation slug. No such invitation is ErrNotFound.
func (s *Accounts) AnswerInvite(ctx context.Context, accountID int64, slug string, accept bool) (err error) {
	defer db.Wrap(&err, "AnswerInvite(%d, %q, %v)", accountID, slug, accept)
	// The organisation's page lists its members.
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		var orgID int64
		err := tx.QueryRow(ctx, `
DELETE FROM org_invites i USING orgs o
WHERE o.id = i.org_id AND lower(o.slug) = lower($2) AND i.submitter_id = $1
RETURNING i.org_id`, accountID, slug).Scan(&orgID)
		if err != nil || !accept {
			return db.NotFound(err)
		}
		_, err = tx.Exec(ctx, `
INSERT INTO org_members (org_id, submitter_id, role) VALUES ($1, $2, 'member')
ON CONFLICT DO NOTHING`, orgID, accountID)
		return err
	}))
}

// RemoveMember takes the account handle out of the organisation slug: an
// owner may remove anyone, any member may remove themselves (leave). The
// organisation's last owner can do neither (ErrLastOwner): it always
// keeps one. The member's tokens for the organisation are revoked; runs
// uploaded for it stay its runs. A handle that is not a member is
// ErrNotMember.
func (s *Accounts) RemoveMember(ctx context.Context, actorID int64, slug, handle string) (err error) {
	defer db.Wrap(&err, "RemoveMember(%d, %q, %q)", actorID, slug, handle)
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		orgID, role, err := orgRole(ctx, tx, slug, actorID)
		if err != nil {
			return err
		}
		id, err := submitterID(ctx, tx, handle)
		if err != nil {
			return err
		}
		switch {
		case role == "":
			return ErrNotMember
		case id != actorID && role != RoleOwner:
			return ErrNotOrgOwner
		}
		if err := keepAnOwner(ctx, tx, orgID, id); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM org_members WHERE org_id = $1 AND submitter_id = $2`, orgID, id)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrNotMember
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE tokens SET revoked_at = now() WHERE submitter_id = $1 AND org_id = $2 AND revoked_at IS NULL`, id, orgID)
		return err
	}))
}

// keepAnOwner refuses (ErrLastOwner) to take the owner role from the
// submitter id when they are the organisation's only owner. The caller
// holds the organisation's row lock (orgRole), so the count stays true.
func keepAnOwner(ctx context.Context, tx pgx.Tx, orgID, id int64) error {
	var last bool
	err := tx.QueryRow(ctx, `
SELECT EXISTS (SELECT 1 FROM org_members WHERE org_id = $1 AND submitter_id = $2 AND role = 'owner')
   AND (SELECT count(*) FROM org_members WHERE org_id = $1 AND role = 'owner') = 1`, orgID, id).Scan(&last)
	if err == nil && last {
		return ErrLastOwner
	}
	return err
}

// MakeOwner makes the member handle an owner of the organisation slug, on
// behalf of the owner actorID. A handle that is not a member (an invitee
// included) is ErrNotMember.
func (s *Accounts) MakeOwner(ctx context.Context, actorID int64, slug, handle string) (err error) {
	defer db.Wrap(&err, "MakeOwner(%d, %q, %q)", actorID, slug, handle)
	// The organisation's page shows each member's role.
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		orgID, id, err := ownerActOn(ctx, tx, slug, actorID, handle)
		if err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE org_members SET role = 'owner' WHERE org_id = $1 AND submitter_id = $2`, orgID, id)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrNotMember
		}
		return err
	}))
}
