package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// Accounts is every account row a backup keeps, under their own ids so
// runs keep their owners. Tokens are kept as their hashes only: the
// tokens themselves were never stored.
type Accounts struct {
	Orgs       []BackupOrg       `json:"orgs"`
	Submitters []BackupSubmitter `json:"submitters"`
	Tokens     []BackupToken     `json:"tokens"`
}

// BackupOrg is an orgs row.
type BackupOrg struct {
	ID   int64  `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// BackupSubmitter is a submitters row.
type BackupSubmitter struct {
	ID        int64     `json:"id"`
	Handle    string    `json:"handle"`
	OrgID     *int64    `json:"org_id"`
	CreatedAt time.Time `json:"created_at"`
}

// BackupToken is a tokens row: the SHA-256 of the token and its prefix.
type BackupToken struct {
	ID          int64      `json:"id"`
	Hash        []byte     `json:"hash"`
	Prefix      string     `json:"prefix"`
	SubmitterID int64      `json:"submitter_id"`
	CreatedAt   time.Time  `json:"created_at"`
	RevokedAt   *time.Time `json:"revoked_at"`
	LastUsedAt  *time.Time `json:"last_used_at"`
}

// BackupAccounts reads every org, submitter and token in one snapshot.
func (s *Store) BackupAccounts(ctx context.Context) (_ *Accounts, err error) {
	defer wrap(&err, "BackupAccounts")
	a := &Accounts{}
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	err = s.transact(ctx, opts, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT id, slug, name FROM orgs ORDER BY id`)
		if a.Orgs, err = pgx.CollectRows(rows, pgx.RowToStructByPos[BackupOrg]); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `SELECT id, handle, org_id, created_at FROM submitters ORDER BY id`)
		if a.Submitters, err = pgx.CollectRows(rows, pgx.RowToStructByPos[BackupSubmitter]); err != nil {
			return err
		}
		rows, _ = tx.Query(ctx, `SELECT id, hash, prefix, submitter_id, created_at, revoked_at, last_used_at FROM tokens ORDER BY id`)
		a.Tokens, err = pgx.CollectRows(rows, pgx.RowToStructByPos[BackupToken])
		return err
	})
	return a, err
}

// RestoreAccounts stores a backup's accounts under their own ids, in one
// transaction, and moves each id sequence past them so new accounts do not
// collide. Run before the runs: a verified run finds its owner by handle.
func (s *Store) RestoreAccounts(ctx context.Context, a *Accounts) (err error) {
	defer wrap(&err, "RestoreAccounts")
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		for _, o := range a.Orgs {
			if _, err := tx.Exec(ctx, `INSERT INTO orgs (id, slug, name) VALUES ($1, $2, $3)`, o.ID, o.Slug, o.Name); err != nil {
				return err
			}
		}
		for _, u := range a.Submitters {
			if _, err := tx.Exec(ctx, `INSERT INTO submitters (id, handle, org_id, created_at) VALUES ($1, $2, $3, $4)`,
				u.ID, u.Handle, u.OrgID, u.CreatedAt); err != nil {
				return err
			}
		}
		for _, k := range a.Tokens {
			if _, err := tx.Exec(ctx, `
INSERT INTO tokens (id, hash, prefix, submitter_id, created_at, revoked_at, last_used_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, k.ID, k.Hash, k.Prefix, k.SubmitterID, k.CreatedAt, k.RevokedAt, k.LastUsedAt); err != nil {
				return err
			}
		}
		for _, table := range []string{"orgs", "submitters", "tokens"} {
			// setval(…, max, true): the next id is max + 1; an empty table
			// starts at 1.
			if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('`+table+`', 'id'),
				COALESCE((SELECT max(id) FROM `+table+`), 0) + 1, false)`); err != nil {
				return err
			}
		}
		return nil
	})
}

// Empty reports whether the database holds no run and no account, as a
// restore requires.
func (s *Store) Empty(ctx context.Context) (empty bool, err error) {
	defer wrap(&err, "Empty")
	err = s.pool.QueryRow(ctx, `SELECT NOT EXISTS (SELECT 1 FROM runs) AND NOT EXISTS (SELECT 1 FROM submitters)
		AND NOT EXISTS (SELECT 1 FROM orgs)`).Scan(&empty)
	return empty, err
}
