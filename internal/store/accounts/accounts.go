// Package accounts keeps the people of the site and what they may do:
// accounts and their sign-in identities, sessions, mailed links, upload
// tokens, organisations and their members, the names they go by (handles
// and organisation slugs, compared by their Unicode skeletons, names.go),
// the runs they own, claim, hide and delete, the moderators' hides and
// the audit log, and the drafts of uploads waiting for their owner.
//
// It must not import package store, which stores the runs and calls it
// (an upload asks it whether its submitter's name may be used). It may
// import package bests: a run hidden, shown, claimed or deleted leaves or
// enters the browse index (bests.LockBest, bests.RebuildGroup), in the
// lock order bests writes down. It stands on package db.
package accounts

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Errors of the account methods, wrapped like db.ErrNotFound (which the
// methods return for a row that is not there).
var (
	// ErrExists is returned when a handle is taken.
	ErrExists = errors.New("already exists")
	// ErrRevoked is returned for a token that was revoked.
	ErrRevoked = errors.New("token revoked")
	// ErrNotOwner is returned when a run does not belong to the account
	// asking (an anonymous run belongs to nobody).
	ErrNotOwner = errors.New("not the run's submitter")
	// ErrAmbiguous is returned when a token prefix names several tokens.
	ErrAmbiguous = errors.New("prefix names several tokens")
)

// Accounts is the accounts' tables on a database. It is safe for
// concurrent use.
type Accounts struct{ db *db.DB }

// New is the accounts on d.
func New(d *db.DB) *Accounts { return &Accounts{db: d} }

// ErrSlugIsHandle is returned when an organisation would take a slug that
// is a submitter's handle: /submitters/acme and /orgs/acme are one party's.
var ErrSlugIsHandle = errors.New("the slug is a submitter's handle")

// CreateSubmitter adds a submitter. A non-empty orgSlug makes them a
// member of that organisation, created (named by its slug) when new; the
// organisation's first member is its owner. A taken handle, in any case,
// or one that is an organisation's slug, is ErrExists; a new
// organisation's slug that is a submitter's handle is ErrSlugIsHandle; a
// handle or new slug that only looks like a handle or slug in use
// (names.Skeleton) is ErrLookalike. Names are locked as account sign-up
// and organisation creation lock them. Retired handles are the
// operator's to give again, as before.
func (s *Accounts) CreateSubmitter(ctx context.Context, handle, orgSlug string) (err error) {
	defer db.Wrap(&err, "CreateSubmitter(%q, %q)", handle, orgSlug)
	// A new member shows on their organisation's page.
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		c, err := lockedClash(ctx, tx, handle, 0)
		switch {
		case err != nil:
			return err
		case c.handle || c.org:
			return ErrExists
		case c.lookalike:
			return ErrLookalike
		}
		var id int64
		err = tx.QueryRow(ctx, `INSERT INTO submitters (handle, skeleton) VALUES ($1, $2) RETURNING id`,
			handle, names.Skeleton(handle)).Scan(&id)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return ErrExists
		}
		if err != nil || orgSlug == "" {
			return err
		}
		orgID, err := submitterOrg(ctx, tx, orgSlug)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
INSERT INTO org_members (org_id, submitter_id, role)
SELECT $1, $2, CASE WHEN EXISTS (SELECT 1 FROM org_members WHERE org_id = $1 AND role = 'owner') THEN 'member' ELSE 'owner' END`,
			orgID, id)
		return err
	}))
}

// submitterOrg is the id of the organisation slug (any case), created and
// named by its slug when new, unless the slug is a submitter's handle
// (ErrSlugIsHandle) or looks like a handle or slug in use (ErrLookalike).
func submitterOrg(ctx context.Context, tx pgx.Tx, slug string) (id int64, err error) {
	c, err := lockedClash(ctx, tx, slug, 0)
	switch {
	case err != nil:
		return 0, err
	case c.org:
		err = tx.QueryRow(ctx, `SELECT id FROM orgs WHERE lower(slug) = lower($1)`, slug).Scan(&id)
		return id, err
	case c.handle:
		return 0, ErrSlugIsHandle
	case c.lookalike:
		return 0, ErrLookalike
	}
	err = tx.QueryRow(ctx, `INSERT INTO orgs (slug, name, skeleton) VALUES ($1, $1, $2) RETURNING id`,
		slug, names.Skeleton(slug)).Scan(&id)
	return id, err
}

// CreateToken stores a token of the submitter handle: only its hash and
// its shown prefix. An unknown handle is ErrNotFound.
func (s *Accounts) CreateToken(ctx context.Context, handle string, hash []byte, prefix string) (err error) {
	defer db.Wrap(&err, "CreateToken(%q, %s…)", handle, prefix)
	tag, err := s.db.Pool().Exec(ctx, `
INSERT INTO tokens (hash, prefix, submitter_id)
SELECT $1, $2, id FROM submitters WHERE lower(handle) = lower($3)`, hash, prefix, handle)
	if err == nil && tag.RowsAffected() == 0 {
		err = db.ErrNotFound
	}
	return err
}

// TokenSubmitter is TokenUploader without the organisation: the handle
// of the token's submitter, for callers that only ask who it is.
func (s *Accounts) TokenSubmitter(ctx context.Context, hash []byte) (handle string, err error) {
	handle, _, err = s.TokenUploader(ctx, hash)
	return handle, err
}

// RevokeToken revokes the token with this hash, or, when hash is nil, the
// one token whose shown prefix is prefix, and returns its submitter's
// handle. Revoking a revoked token again is harmless.
func (s *Accounts) RevokeToken(ctx context.Context, hash []byte, prefix string) (handle string, err error) {
	defer db.Wrap(&err, "RevokeToken(%s…)", prefix)
	err = s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `
UPDATE tokens t SET revoked_at = coalesce(t.revoked_at, now())
FROM submitters s
WHERE s.id = t.submitter_id AND (t.hash = $1 OR ($1::bytea IS NULL AND t.prefix = $2))
RETURNING s.handle`, hash, prefix)
		handles, err := pgx.CollectRows(rows, pgx.RowTo[string])
		switch {
		case err != nil:
			return err
		case len(handles) == 0:
			return db.ErrNotFound
		case len(handles) > 1:
			return ErrAmbiguous // rolled back: nothing revoked
		}
		handle = handles[0]
		return nil
	})
	return handle, err
}

// DeleteOwnedRun deletes run id when it belongs to the submitter handle. A
// missing (or hidden) run is ErrNotFound; another's, or an anonymous one,
// ErrNotOwner.
func (s *Accounts) DeleteOwnedRun(ctx context.Context, id, handle string) (err error) {
	defer db.Wrap(&err, "DeleteOwnedRun(%q, %q)", id, handle)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // first: it rebuilds the run's group
			return err
		}
		var owner *string
		err := tx.QueryRow(ctx, `
SELECT s.handle FROM runs r LEFT JOIN submitters s ON s.id = r.submitter_id
WHERE r.id = $1 AND NOT r.hidden FOR UPDATE OF r`, id).Scan(&owner)
		if err != nil {
			return db.NotFound(err)
		}
		if owner == nil || *owner != handle {
			return ErrNotOwner
		}
		// Hidden first, so its group's bests are rebuilt without it while
		// the row still names the group.
		if err := HideInTx(ctx, tx, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM runs WHERE id = $1`, id); err != nil {
			return err
		}
		// Its address answers 410 Gone from now on (RunGone).
		_, err = tx.Exec(ctx, `INSERT INTO deleted_runs (id) VALUES ($1) ON CONFLICT DO NOTHING`, id)
		return err
	}))
}

// HideRun hides a run from readers (404) and from every list and
// leaderboard, keeping it stored, as its owner would: the owner may show
// it again (a moderator's hide, which they may not, is ModerateHideRun).
// It bumps the revision so no cached page outlives it.
func (s *Accounts) HideRun(ctx context.Context, id string) (err error) {
	defer db.Wrap(&err, "HideRun(%q)", id)
	return s.db.TransactChange(ctx, bests.RunChange(ctx, id, func(tx pgx.Tx) error {
		if err := bests.LockBest(ctx, tx); err != nil { // first: it rebuilds the run's group
			return err
		}
		return HideInTx(ctx, tx, id)
	}))
}

// HideInTx hides run id in tx, which holds LockBest, as its owner's own
// choice (or a plain hide, which the owner may undo). A moderator's hide
// is ModerateHideRun.
func HideInTx(ctx context.Context, tx pgx.Tx, id string) error {
	return hideWith(ctx, tx, id, hideOwnSQL)
}

// hideOwnSQL sets the owner's choice alone: a moderation already there
// stays, and lifting it later finds the owner's wish to keep it hidden.
const hideOwnSQL = `UPDATE runs SET hidden = true, owner_hidden = true, revision = revision + 1 WHERE id = $1`

// hideWith hides run id in tx, which holds LockBest, by update (a
// statement of $1, the id, and args), and renews its group's count and
// bests: the one path every kind of hide takes.
func hideWith(ctx context.Context, tx pgx.Tx, id, update string, args ...any) error {
	var wasHidden bool
	err := tx.QueryRow(ctx, `SELECT hidden FROM runs WHERE id = $1 FOR UPDATE`, id).Scan(&wasHidden)
	if err != nil {
		return db.NotFound(err)
	}
	if _, err := tx.Exec(ctx, update, append([]any{id}, args...)...); err != nil {
		return err
	}
	if !wasHidden {
		// The run leaves its browse group's count (once, however often
		// it is hidden).
		if err := bests.UncountRun(ctx, tx, id); err != nil {
			return err
		}
	}
	// The run may hold a best cell of its group: rebuild the group without it.
	return bests.RebuildGroup(ctx, tx, id)
}
