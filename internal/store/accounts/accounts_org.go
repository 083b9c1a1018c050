package accounts

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// Errors of the organisation methods, wrapped like ErrNotFound.
var (
	// ErrNotMember is returned when an account acts for an organisation
	// it does not belong to (an invitation is not a membership).
	ErrNotMember = errors.New("not a member of the organisation")
	// ErrNotOrgOwner is returned when a member who is not an owner tries
	// what only owners may (invite, remove, make an owner).
	ErrNotOrgOwner = errors.New("not an owner of the organisation")
	// ErrLastOwner is returned when a change would leave an organisation
	// without an owner.
	ErrLastOwner = errors.New("the organisation's last owner")
	// ErrNotInvited is returned when an owner withdraws an invitation
	// that is not pending (never made, answered or withdrawn already).
	ErrNotInvited = errors.New("no invitation pending")
)

// Roles of a member.
const (
	RoleOwner  = "owner"
	RoleMember = "member"
)

// Org is an organisation as its page shows it: its members with their
// roles and the newest runs uploaded for it.
type Org struct {
	ID         int64
	Slug, Name string
	Members    []OrgMember
	Runs       []bests.RunSummary
	// Invited are the handles invited and not yet answered, for owners.
	Invited []string
}

// OrgMember is one member of an organisation.
type OrgMember struct {
	Handle string `db:"handle"`
	Role   string `db:"role"`
}

// Role is the role of the account handle in o, "" when not a member.
func (o *Org) Role(handle string) string {
	for _, m := range o.Members {
		if m.Handle == handle {
			return m.Role
		}
	}
	return ""
}

// OrgRunsLimit bounds the runs an organisation's page lists, newest first.
const OrgRunsLimit = 50

// GetOrg loads the organisation slug (any case) with its members, owners
// first, its pending invitations and its newest visible runs. An unknown
// slug is ErrNotFound.
func (s *Accounts) GetOrg(ctx context.Context, slug string) (_ *Org, err error) {
	defer db.Wrap(&err, "GetOrg(%q)", slug)
	o := &Org{}
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = s.db.Transact(ctx, opts, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `SELECT id, slug, name FROM orgs WHERE lower(slug) = lower($1)`, slug).Scan(&o.ID, &o.Slug, &o.Name)
		if err != nil {
			return db.NotFound(err)
		}
		rows, _ := tx.Query(ctx, `
SELECT s.handle, m.role FROM org_members m JOIN submitters s ON s.id = m.submitter_id
WHERE m.org_id = $1 ORDER BY m.role = 'owner' DESC, lower(s.handle)`, o.ID)
		if o.Members, err = pgx.CollectRows(rows, pgx.RowToStructByName[OrgMember]); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `
SELECT s.handle FROM org_invites i JOIN submitters s ON s.id = i.submitter_id
WHERE i.org_id = $1 ORDER BY lower(s.handle)`, o.ID)
		if o.Invited, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, orgRunsSQL, o.ID, OrgRunsLimit)
		o.Runs, err = pgx.CollectRows(rows, pgx.RowToStructByName[bests.RunSummary])
		for i := range o.Runs {
			o.Runs[i].UploadedAt = o.Runs[i].UploadedAt.UTC()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return o, nil
}

// orgRunsSQL lists the runs uploaded for an organisation with ListRecent's
// columns and order.
const orgRunsSQL = `
SELECT r.id, r.model_id, r.hardware_gpu_name, r.hardware_gpu_count, r.hardware_vram_gb,
    r.engine_name, r.engine_version, r.engine_quantization, r.submitter, r.uploaded_at,
    (SELECT max(c.total_tps) FROM decode_cells c
     WHERE c.run_id = r.id AND c.status = 'valid') AS best_total_tps
FROM runs r
WHERE r.org_id = $1 AND NOT r.hidden
ORDER BY r.uploaded_at DESC, r.id DESC
LIMIT $2`

// CreateOrg makes the organisation slug, named name, with the account as
// its owner. A slug taken by an organisation or by an account's handle
// (now, or retired less than HandleQuarantine ago), in any case, is
// ErrExists: /orgs/acme and /submitters/acme must be one party's. A slug
// that only looks like one of those (names.Skeleton) is ErrLookalike.
func (s *Accounts) CreateOrg(ctx context.Context, accountID int64, slug, name string) (err error) {
	defer db.Wrap(&err, "CreateOrg(%d, %q)", accountID, slug)
	return s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		c, err := lockedClash(ctx, tx, slug, HandleQuarantine)
		switch {
		case err != nil:
			return err
		case c.handle || c.org || c.retired:
			return ErrExists
		case c.lookalike:
			return ErrLookalike
		}
		var orgID int64
		err = tx.QueryRow(ctx, `INSERT INTO orgs (slug, name, skeleton) VALUES ($1, $2, $3) RETURNING id`,
			slug, name, names.Skeleton(slug)).Scan(&orgID)
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" {
			return ErrExists
		}
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO org_members (org_id, submitter_id, role) VALUES ($1, $2, 'owner')`, orgID, accountID)
		return err
	}))
}

// Membership is one organisation an account belongs to, or is invited to.
type Membership struct {
	Slug  string    `db:"slug"`
	Name  string    `db:"name"`
	Role  string    `db:"role"` // "" for an invitation
	Since time.Time `db:"since"`
	// InvitedBy is the handle of the owner who invited (invitations only).
	InvitedBy string `db:"invited_by"`
}

// AccountOrgs returns the organisations the account belongs to and the
// invitations it has not answered, each by name.
func (s *Accounts) AccountOrgs(ctx context.Context, accountID int64) (member, invited []Membership, err error) {
	defer db.Wrap(&err, "AccountOrgs(%d)", accountID)
	rows, _ := s.db.Pool().Query(ctx, `
SELECT o.slug, o.name, m.role, m.joined_at AS since, '' AS invited_by
FROM org_members m JOIN orgs o ON o.id = m.org_id
WHERE m.submitter_id = $1 ORDER BY lower(o.name), o.slug`, accountID)
	if member, err = pgx.CollectRows(rows, pgx.RowToStructByName[Membership]); err != nil {
		return nil, nil, err
	}
	rows, _ = s.db.Pool().Query(ctx, `
SELECT o.slug, o.name, '' AS role, i.created_at AS since, coalesce(s.handle, '') AS invited_by
FROM org_invites i JOIN orgs o ON o.id = i.org_id LEFT JOIN submitters s ON s.id = i.invited_by
WHERE i.submitter_id = $1 ORDER BY i.created_at DESC, o.slug`, accountID)
	invited, err = pgx.CollectRows(rows, pgx.RowToStructByName[Membership])
	return member, invited, err
}

// MemberOrg returns the organisation slug (any case) when the account is
// its member; otherwise ErrNotMember (an unknown slug too, so a form
// cannot probe for organisations).
func (s *Accounts) MemberOrg(ctx context.Context, accountID int64, slug string) (_ *Membership, err error) {
	defer db.Wrap(&err, "MemberOrg(%d, %q)", accountID, slug)
	rows, _ := s.db.Pool().Query(ctx, `
SELECT o.slug, o.name, m.role, m.joined_at AS since, '' AS invited_by
FROM org_members m JOIN orgs o ON o.id = m.org_id
WHERE m.submitter_id = $1 AND lower(o.slug) = lower($2)`, accountID, slug)
	m, err := pgx.CollectExactlyOneRow(rows, pgx.RowToAddrOfStructByName[Membership])
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrNotMember
	}
	return m, err
}
