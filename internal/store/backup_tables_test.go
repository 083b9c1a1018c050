package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// TestBackupCoversSchema fails when a migration adds a table that is
// neither in store.BackupTables nor left out with a reason, or a column
// to a kept table that its entry does not list: a backup would lose it
// silently. (The runs table is kept through each run's record; its entry
// lists only what the record does not hold.)
func TestBackupCoversSchema(t *testing.T) {
	s, _ := dbtest.New(t)
	ctx := context.Background()
	var columns map[string][]string
	err := store.Transact(ctx, s, func(tx pgx.Tx) error {
		rows, _ := tx.Query(ctx, `SELECT table_name::text, column_name::text FROM information_schema.columns
WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`)
		columns = map[string][]string{}
		var table, column string
		_, err := pgx.ForEachRow(rows, []any{&table, &column}, func() error {
			columns[table] = append(columns[table], column)
			return nil
		})
		return err
	})
	if err != nil || len(columns) < 10 {
		t.Fatalf("%d tables read, %v", len(columns), err)
	}
	for table, cols := range columns {
		kept, ok := store.BackupTableNamed(table)
		_, left := store.BackupLeftOut[table]
		switch {
		case ok && left:
			t.Errorf("table %s is both kept and left out", table)
		case !ok && !left:
			t.Errorf("table %s is neither in store.BackupTables nor in backupLeftOut", table)
		case ok && !kept.Update:
			for _, c := range cols {
				if !slices.Contains(kept.ColumnList(), c) {
					t.Errorf("column %s.%s is not in its store.BackupTables entry", table, c)
				}
			}
		}
	}
	for _, kept := range store.BackupTables {
		for _, c := range kept.ColumnList() {
			if !slices.Contains(columns[kept.Name], c) {
				t.Errorf("store.BackupTables lists %s.%s, which the schema lacks", kept.Name, c)
			}
		}
	}
	for table := range store.BackupLeftOut {
		if columns[table] == nil {
			t.Errorf("backupLeftOut names %s, which the schema lacks", table)
		}
	}
}
