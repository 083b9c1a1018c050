package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// A bulk load into an empty database builds most indexes of the tables it
// fills once, at its end, instead of entry by entry: at a million runs the
// cells' primary key alone is 30 million entries in random run order, an
// index several times larger than the server's buffers, and each COPY
// spent most of its time reading and writing its pages. The rows stored
// are the same; only when their index entries are made changes.

// deferredTables are the tables whose indexes a bulk load may defer.
var deferredTables = []string{"runs", "decode_cells", "prefill_rows",
	"best_cells", "version_best_cells", "submitter_best_cells", "history_cells"}

// deferredKeyTables are those of deferredTables whose primary key is
// deferred too. The other tables keep theirs, because the load reads them:
// the runs' keys settle ids and dedupe keys (assignIDs), and the offers of
// Bulk.Finish probe and conflict on the tables of bests' keys. The cells'
// keys only guard rows the load makes unique by construction (a run's
// cells come from one document, as an upload's do).
var deferredKeyTables = []string{"decode_cells", "prefill_rows"}

// deferredLast is the entry of bulk_deferred_indexes made last, after
// every index: the planner's ladders, which a bulk load into an empty
// database derives once at its end rather than with every copy of bests.
const deferredLast = "plan_ladders"

// deferIndexesSQL lists the indexes a load defers, with the statement that
// builds each again: a constraint's own ALTER TABLE, or the index's
// definition.
const deferIndexesSQL = `
SELECT ic.relname, c.relname,
    CASE WHEN con.oid IS NULL THEN pg_get_indexdef(i.indexrelid)
        ELSE format('ALTER TABLE %I ADD CONSTRAINT %I %s', c.relname, con.conname, pg_get_constraintdef(con.oid)) END,
    CASE WHEN con.oid IS NULL THEN format('DROP INDEX %I', ic.relname)
        ELSE format('ALTER TABLE %I DROP CONSTRAINT %I', c.relname, con.conname) END
FROM pg_index i
JOIN pg_class c ON c.oid = i.indrelid
JOIN pg_class ic ON ic.oid = i.indexrelid
LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY($1)
    AND (con.oid IS NULL OR (con.contype = 'p' AND c.relname = ANY($2)))
ORDER BY c.relname, ic.relname`

// deferIndexes drops the indexes a load into an empty database defers
// (deferredTables), recording how to build each in bulk_deferred_indexes,
// in one transaction, and the planner's ladders after them (deferredLast).
// It does nothing when runs holds a row: a load onto stored runs keeps
// every index, as the site may be serving them. It reports whether it
// deferred them.
func (s *Store) deferIndexes(ctx context.Context) (deferred bool, err error) {
	defer db.Wrap(&err, "deferIndexes")
	err = s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		// Nobody writes a run until the drops commit.
		if _, err := tx.Exec(ctx, `LOCK TABLE runs IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return err
		}
		var empty bool
		if err := tx.QueryRow(ctx, `SELECT NOT EXISTS (SELECT FROM runs)`).Scan(&empty); err != nil || !empty {
			return err
		}
		rows, _ := tx.Query(ctx, deferIndexesSQL, deferredTables, deferredKeyTables)
		type index struct{ name, table, restore, drop string }
		idx, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (index, error) {
			var x index
			return x, r.Scan(&x.name, &x.table, &x.restore, &x.drop)
		})
		if err != nil {
			return err
		}
		for _, x := range idx {
			if _, err := tx.Exec(ctx, `INSERT INTO bulk_deferred_indexes (name, table_name, restore) VALUES ($1, $2, $3)`,
				x.name, x.table, x.restore); err != nil {
				return fmt.Errorf("%s: %w", x.name, err)
			}
			if _, err := tx.Exec(ctx, x.drop); err != nil {
				return fmt.Errorf("%s: %w", x.drop, err)
			}
		}
		// The planner's ladders are derived from best_cells through its
		// index and the cells' key: they wait for the indexes, built
		// last of all (deferredLast), and best_cells' triggers leave them
		// alone meanwhile (migration 0037).
		if _, err := tx.Exec(ctx, `INSERT INTO bulk_deferred_indexes (name, table_name, restore) VALUES ($1, $1, $2)`,
			deferredLast, `SELECT plan_ladders_renew_all()`); err != nil {
			return fmt.Errorf("%s: %w", deferredLast, err)
		}
		deferred = true
		return nil
	})
	return deferred, err
}

// BuildDeferredIndexes builds every index a bulk load deferred and has not
// built yet (bulk_deferred_indexes), in one transaction: the end of a
// load, or the start of the next after one was interrupted. It does
// nothing when none is deferred.
func (s *Store) BuildDeferredIndexes(ctx context.Context) (err error) {
	defer db.Wrap(&err, "BuildDeferredIndexes")
	return s.db.Transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT restore FROM bulk_deferred_indexes ORDER BY name = $1, table_name, name FOR UPDATE`,
			deferredLast)
		restores, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(restores) == 0 {
			return err
		}
		// Each build sorts its table once; more memory keeps the sort of
		// 30 million cells' keys off the disk.
		if _, err := tx.Exec(ctx, `SET LOCAL maintenance_work_mem = '512MB'`); err != nil {
			return err
		}
		for _, r := range restores {
			if _, err := tx.Exec(ctx, r); err != nil {
				return fmt.Errorf("%s: %w", r, err)
			}
		}
		_, err = tx.Exec(ctx, `DELETE FROM bulk_deferred_indexes`)
		return err
	})
}
