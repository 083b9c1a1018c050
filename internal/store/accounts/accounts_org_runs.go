package accounts

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// QueueRefuseNonMember queues, when r is uploaded for an organisation,
// the check that refuses it (ErrNotMember) unless its verified submitter
// is a member, and returns the function that reads the answer in turn,
// filling in the organisation's slug and name as stored. Checked in the
// inserting transaction because every door's upload ends there: the
// form, the API and lil-bench's token alike.
func QueueRefuseNonMember(b *pgx.Batch, r *run.Run) func(pgx.BatchResults) error {
	if r.Org.Slug == "" {
		return func(pgx.BatchResults) error { return nil }
	}
	if !r.SubmitterVerified {
		return func(pgx.BatchResults) error { return ErrNotMember }
	}
	b.Queue(`
SELECT o.slug, o.name FROM org_members m
JOIN orgs o ON o.id = m.org_id JOIN submitters s ON s.id = m.submitter_id
WHERE lower(o.slug) = lower($1) AND lower(s.handle) = lower($2)`, r.Org.Slug, r.Submitter)
	return func(br pgx.BatchResults) error {
		err := br.QueryRow().Scan(&r.Org.Slug, &r.Org.Name)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotMember
		}
		return err
	}
}

// CreateOrgToken stores a token of the account for the organisation slug:
// uploads with it are the organisation's while the account is a member.
// An account that is not a member is ErrNotMember.
func (s *Accounts) CreateOrgToken(ctx context.Context, accountID int64, slug string, hash []byte, prefix string) (err error) {
	defer db.Wrap(&err, "CreateOrgToken(%d, %q, %s…)", accountID, slug, prefix)
	tag, err := s.db.Pool().Exec(ctx, `
INSERT INTO tokens (hash, prefix, submitter_id, org_id)
SELECT $1, $2, m.submitter_id, m.org_id FROM org_members m JOIN orgs o ON o.id = m.org_id
WHERE m.submitter_id = $3 AND lower(o.slug) = lower($4)`, hash, prefix, accountID, slug)
	if err == nil && tag.RowsAffected() == 0 {
		err = ErrNotMember
	}
	return err
}

// TokenUploader returns who uploads with the token of this hash: its
// submitter's handle and, for a token made for an organisation, the
// organisation's slug; it notes the token as used. A revoked token, one of
// a suspended account, or an organisation's token whose submitter is no
// longer its member, is ErrRevoked (with the handle); an unknown one
// ErrNotFound.
func (s *Accounts) TokenUploader(ctx context.Context, hash []byte) (handle, org string, err error) {
	// No arguments in the wrapped error: the hash is of a secret.
	defer db.Wrap(&err, "TokenUploader")
	var revoked bool
	err = s.db.Pool().QueryRow(ctx, `
UPDATE tokens t SET last_used_at = CASE WHEN t.revoked_at IS NULL THEN now() ELSE t.last_used_at END
FROM submitters s
WHERE t.hash = $1 AND s.id = t.submitter_id
RETURNING s.handle, coalesce((SELECT slug FROM orgs WHERE id = t.org_id), ''),
    t.revoked_at IS NOT NULL OR s.suspended_at IS NOT NULL
    OR (t.org_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM org_members m WHERE m.org_id = t.org_id AND m.submitter_id = t.submitter_id))`,
		hash).Scan(&handle, &org, &revoked)
	if err != nil {
		return "", "", db.NotFound(err)
	}
	if revoked {
		return handle, org, ErrRevoked
	}
	return handle, org, nil
}

// OrgNamed returns the organisation slug (any case) as a run names it, or
// ErrNotFound.
func (s *Accounts) OrgNamed(ctx context.Context, slug string) (_ run.Org, err error) {
	defer db.Wrap(&err, "OrgNamed(%q)", slug)
	var o run.Org
	err = s.db.Pool().QueryRow(ctx, `SELECT slug, name FROM orgs WHERE lower(slug) = lower($1)`, slug).Scan(&o.Slug, &o.Name)
	return o, db.NotFound(err)
}
