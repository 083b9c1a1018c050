package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// BackupSnapshot reads what a backup keeps, every part from one snapshot
// of the database, so a backup taken while people use the site is
// consistent: no session of an account the backup lacks, no run owned by
// one.
type BackupSnapshot struct{ tx pgx.Tx }

// Snapshot calls fn with a read-only snapshot of the database.
func (s *Store) Snapshot(ctx context.Context, fn func(*BackupSnapshot) error) (err error) {
	defer db.Wrap(&err, "Snapshot")
	opts := pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}
	return s.db.Transact(ctx, opts, func(tx pgx.Tx) error {
		// Rows read the same whatever the server's settings: times in
		// UTC, bytes in hex (what json_populate_recordset reads back).
		if _, err := tx.Exec(ctx, `SELECT set_config('TimeZone', 'UTC', true), set_config('bytea_output', 'hex', true)`); err != nil {
			return err
		}
		return fn(&BackupSnapshot{tx})
	})
}

// EachRow calls fn with every row of t as a JSON object of t's columns in
// their order, the rows in a stable order (by every column).
func (b *BackupSnapshot) EachRow(ctx context.Context, t BackupTable, fn func(row []byte) error) (err error) {
	defer db.Wrap(&err, "EachRow(%s)", t.Name)
	cols := quoteAll(t.ColumnList(), "")
	rows, err := b.tx.Query(ctx, `SELECT row_to_json(r)::text FROM (SELECT `+strings.Join(cols, ", ")+
		` FROM `+pgx.Identifier{t.Name}.Sanitize()+`) r ORDER BY `+strings.Join(quoteAll(t.ColumnList(), "r."), ", "))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var row string
		if err := rows.Scan(&row); err != nil {
			return err
		}
		if err := fn([]byte(row)); err != nil {
			return err
		}
	}
	return rows.Err()
}

// CheckColumns fails unless every one of cols is a column t keeps: a
// backup naming another was written by a newer version, and restoring it
// without that column would lose what it holds.
func (t BackupTable) CheckColumns(cols []string) error {
	known := t.ColumnList()
	for _, c := range cols {
		if !slices.Contains(known, c) {
			return fmt.Errorf("table %s: column %q is not one this version restores (a newer version wrote the backup?)", t.Name, c)
		}
	}
	if t.Update && (len(cols) == 0 || cols[0] != known[0]) {
		return fmt.Errorf("table %s: the rows must start with %s, what they are matched on", t.Name, known[0])
	}
	return nil
}

// RestoreRows stores rows of t from a backup, each a JSON object with the
// columns cols (others take their defaults), in one statement. Update
// tables set cols[1:] on the rows matched by cols[0]; every row must
// match one.
func (s *Store) RestoreRows(ctx context.Context, t BackupTable, cols []string, rows []json.RawMessage) (err error) {
	defer db.Wrap(&err, "RestoreRows(%s)", t.Name)
	if err := t.CheckColumns(cols); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	table := pgx.Identifier{t.Name}.Sanitize()
	from := ` FROM json_populate_recordset(NULL::` + table + `, $1::json) j`
	var sql string
	if t.Update {
		var set []string
		for _, c := range quoteAll(cols[1:], "") {
			set = append(set, c+" = j."+c)
		}
		key := pgx.Identifier{cols[0]}.Sanitize()
		sql = `UPDATE ` + table + ` t SET ` + strings.Join(set, ", ") + from + ` WHERE t.` + key + ` = j.` + key
	} else {
		list := strings.Join(quoteAll(cols, ""), ", ")
		sql = `INSERT INTO ` + table + ` (` + list + `) SELECT ` + strings.Join(quoteAll(cols, "j."), ", ") + from
	}
	array, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	tag, err := s.db.Pool().Exec(ctx, sql, string(array))
	if err == nil && tag.RowsAffected() != int64(len(rows)) {
		err = fmt.Errorf("%d of %d rows stored: the others name rows the backup does not hold", tag.RowsAffected(), len(rows))
	}
	return err
}

// FinishRestore ends a restore: the id sequences move past the restored
// ids, a backup made before organisations had members gets the
// memberships the migration that introduced them would have made, one
// made before moderation was its own state the moderations (what
// accounts.BackfillModerationSQL finds in its audit log), and every name's
// skeleton is computed by this build.
func (s *Store) FinishRestore(ctx context.Context) (err error) {
	defer db.Wrap(&err, "FinishRestore")
	if err := s.restoreSequences(ctx); err != nil {
		return err
	}
	if _, err := s.db.Pool().Exec(ctx, accounts.BackfillModerationSQL); err != nil {
		return err
	}
	if err := s.restoreLegacyMemberships(ctx); err != nil {
		return err
	}
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error { return accounts.RefillSkeletons(ctx, tx) })
}

// restoreLegacyMemberships turns the operator's one-organisation
// placements (submitters.org_id) of a backup without memberships into
// memberships, the first placed submitter the owner, and makes their
// verified runs the organisation's: what the migration did to the same
// rows in place. A backup with any membership has them all already.
func (s *Store) restoreLegacyMemberships(ctx context.Context) error {
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		var has bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM org_members)`).Scan(&has); err != nil || has {
			return err
		}
		if _, err := tx.Exec(ctx, `
INSERT INTO org_members (org_id, submitter_id, role, joined_at)
SELECT org_id, id,
    CASE WHEN id = min(id) OVER (PARTITION BY org_id) THEN 'owner' ELSE 'member' END,
    created_at
FROM submitters WHERE org_id IS NOT NULL`); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
UPDATE runs r SET org_id = s.org_id
FROM submitters s WHERE s.id = r.submitter_id AND s.org_id IS NOT NULL AND r.submitter_verified AND r.org_id IS NULL`)
		return err
	})
}

// restoreSequences moves the id sequence of every serial table past the
// restored ids, so the next account, token or audit line gets a new one.
func (s *Store) restoreSequences(ctx context.Context) error {
	for _, t := range BackupTables {
		if !t.Serial {
			continue
		}
		name := pgx.Identifier{t.Name}.Sanitize()
		// setval(…, max + 1, false): the next id is max + 1; an empty
		// table starts at 1.
		if _, err := s.db.Pool().Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, 'id'),
			COALESCE((SELECT max(id) FROM `+name+`), 0) + 1, false)`, t.Name); err != nil {
			return err
		}
	}
	return nil
}

// restoredTables are the tables a restore writes: the backed-up ones, the
// runs and the groups and counts derived with them (the tables of a run's
// rows, named by run_id, are emptied with runs by its TRUNCATE trigger,
// migration 0017).
func restoredTables() []string {
	names := []string{"runs", "browse_groups", "browse_count_deltas", "identity_runs", "engine_version_runs",
		"history_versions", "history_setups"}
	for _, t := range BackupTables {
		if !t.Update && !slices.Contains(names, t.Name) {
			names = append(names, t.Name)
		}
	}
	return names
}

// Empty reports whether the database holds none of what a restore
// writes, as a restore requires.
func (s *Store) Empty(ctx context.Context) (empty bool, err error) {
	defer db.Wrap(&err, "Empty")
	var exists []string
	for _, name := range restoredTables() {
		exists = append(exists, `EXISTS (SELECT 1 FROM `+pgx.Identifier{name}.Sanitize()+`)`)
	}
	err = s.db.Pool().QueryRow(ctx, `SELECT NOT (`+strings.Join(exists, " OR ")+`)`).Scan(&empty)
	return empty, err
}

// UndoRestore empties every table a restore writes, after a restore into
// an empty database failed part way: a site is restored whole or not at
// all. Only a restore calls it, having checked Empty first.
func (s *Store) UndoRestore(ctx context.Context) (err error) {
	defer db.Wrap(&err, "UndoRestore")
	_, err = s.db.Pool().Exec(ctx, `TRUNCATE `+strings.Join(quoteAll(restoredTables(), ""), ", ")+` RESTART IDENTITY CASCADE`)
	return err
}

// quoteAll quotes every name as an identifier, after prefix.
func quoteAll(names []string, prefix string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + pgx.Identifier{n}.Sanitize()
	}
	return out
}
