package accounts

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/names"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// ErrLookalike is returned when a new handle or organisation slug is not
// taken as typed but looks like a name that is (names.Skeleton): an
// account's handle, an organisation's slug, or a handle retired less than
// HandleQuarantine ago. It is an ErrExists too, for callers that only ask
// whether the name can be had.
var ErrLookalike = fmt.Errorf("%w: looks like a name in use", ErrExists)

// Every name of a person is kept with its skeleton (migration 0027): the
// store writes it with each new handle, slug and retired handle, and
// fillSkeletons gives one to rows that lack it. Lookups go by skeleton and
// also by the name as typed (any case), so a row not filled yet still
// refuses its own name.

// nameClash is what a new name meets among the names in use.
type nameClash struct {
	handle, org, retired bool // the name itself (any case) is taken
	lookalike            bool // another name in use has its skeleton
}

// nameClashSQL finds the names in use equal to $1 (any case) or of
// skeleton $2: handles, slugs, and handles retired less than $3 seconds ago.
const nameClashSQL = `
SELECT coalesce(bool_or(kind = 'handle' AND exact), false),
    coalesce(bool_or(kind = 'org' AND exact), false),
    coalesce(bool_or(kind = 'retired' AND exact), false),
    coalesce(bool_or(NOT exact), false)
FROM (
    SELECT 'handle' AS kind, lower(handle) = lower($1) AS exact FROM submitters
    WHERE skeleton = $2 OR lower(handle) = lower($1)
    UNION ALL
    SELECT 'org', lower(slug) = lower($1) FROM orgs
    WHERE skeleton = $2 OR lower(slug) = lower($1)
    UNION ALL
    SELECT 'retired', handle = lower($1) FROM retired_handles
    WHERE (skeleton = $2 OR handle = lower($1)) AND retired_at > now() - make_interval(secs => $3)
) n`

// clashOf reads what name meets, counting handles retired less than
// quarantine ago (0 counts none).
func clashOf(ctx context.Context, q db.RowQuerier, name string, quarantine time.Duration) (c nameClash, err error) {
	err = q.QueryRow(ctx, nameClashSQL, name, names.Skeleton(name), quarantine.Seconds()).
		Scan(&c.handle, &c.org, &c.retired, &c.lookalike)
	return c, err
}

// lockName holds, until tx ends, a lock on every name that looks like
// name (one skeleton, one lock), so an account and an organisation made
// at the same moment cannot take two look-alike names. It is a statement
// of its own: the check after it takes its snapshot once the lock is held,
// and so sees whatever the previous holder committed.
func lockName(ctx context.Context, tx pgx.Tx, name string) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('speedmatrix name ' || $1, 0))`,
		names.Skeleton(name))
	return err
}

// lockedClash is lockName, then clashOf.
func lockedClash(ctx context.Context, tx pgx.Tx, name string, quarantine time.Duration) (nameClash, error) {
	if err := lockName(ctx, tx, name); err != nil {
		return nameClash{}, err
	}
	return clashOf(ctx, tx, name, quarantine)
}

// newHandleErr is the refusal of a new account's handle, nil when free:
// retired (ErrRetired), an account's or an organisation's (ErrExists), or
// looking like one of those (ErrLookalike).
func (c nameClash) newHandleErr() error {
	switch {
	case c.retired:
		return ErrRetired
	case c.handle || c.org: // /submitters/acme and /orgs/acme are one party's
		return ErrExists
	case c.lookalike:
		return ErrLookalike
	}
	return nil
}
