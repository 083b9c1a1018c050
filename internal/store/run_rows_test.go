package store_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/dbtest"
	"github.com/speedmatrix/speedmatrix/internal/store/storetest"
)

// TestRunRowsGoWithTheirRun: no foreign key ties a run's rows in other
// tables to it (migration 0017), so every table with a run_id column,
// found in the catalog rather than listed here, must lose the rows of a
// deleted run and keep the others', and be emptied when runs is
// truncated, as a failed restore does (UndoRestore).
func TestRunRowsGoWithTheirRun(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	conn := storetest.RawConn(t, dbURL)
	// Ranked (not quick), so each run has bests and history cells; in
	// groups of their own, so each keeps its own.
	gone, kept := storetest.SeedRun(), storetest.SeedRun()
	gone.Profile, kept.Profile = "standard", "standard"
	kept.Model.ID = "Qwen/Qwen3-8B"
	goneID, keptID := storetest.MustInsertRun(t, s, gone, "gone"), storetest.MustInsertRun(t, s, kept, "kept")
	rows, _ := conn.Query(ctx, `SELECT table_name::text FROM information_schema.columns
WHERE table_schema = 'public' AND column_name = 'run_id' ORDER BY 1`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if len(tables) < 5 {
		t.Fatalf("tables with a run_id: %v, want at least the five of migration 0017", tables)
	}
	count := func(table, id string) int64 {
		return storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM `+pgx.Identifier{table}.Sanitize()+` WHERE run_id = $1`, id)
	}
	before := map[string][2]int64{}
	for _, table := range tables {
		before[table] = [2]int64{count(table, goneID), count(table, keptID)}
		if before[table][0] == 0 || before[table][1] == 0 {
			t.Errorf("%s holds %v rows of the two runs before the delete, want some of each", table, before[table])
		}
	}
	if _, err := conn.Exec(ctx, `DELETE FROM runs WHERE id = $1`, goneID); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if n := count(table, goneID); n != 0 {
			t.Errorf("%s keeps %d rows of the deleted run", table, n)
		}
		if n := count(table, keptID); n != before[table][1] {
			t.Errorf("%s holds %d rows of the other run after the delete, want %d", table, n, before[table][1])
		}
	}
	if err := s.UndoRestore(ctx); err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		if n := storetest.MustQueryInt(t, dbURL, `SELECT count(*) FROM `+pgx.Identifier{table}.Sanitize()); n != 0 {
			t.Errorf("%s holds %d rows after runs was truncated", table, n)
		}
	}
	if empty, err := s.Empty(ctx); !empty || err != nil {
		t.Errorf("Empty after UndoRestore: %v, %v", empty, err)
	}
}

// TestSourcesCompressedByLZ4: an upload's document is stored compressed by
// lz4 (migration 0017), cheaper to write and read than the default pglz.
func TestSourcesCompressedByLZ4(t *testing.T) {
	s, dbURL := dbtest.New(t)
	ctx := context.Background()
	doc := []byte(strings.Repeat(`{"context": 16384, "concurrency": 8, "total_tps": 1234.5}, `, 300))
	id, _, err := s.InsertRun(ctx, storetest.SeedRun(), "lz4", doc)
	if err != nil {
		t.Fatal(err)
	}
	conn := storetest.RawConn(t, dbURL)
	var method *string
	var stored []byte
	if err := conn.QueryRow(ctx, `SELECT pg_column_compression(body), body FROM run_sources WHERE run_id = $1`, id).
		Scan(&method, &stored); err != nil {
		t.Fatal(err)
	}
	if method == nil || *method != "lz4" || string(stored) != string(doc) {
		t.Errorf("source stored by %v, %d bytes back of %d; want lz4 and the same bytes", method, len(stored), len(doc))
	}
}
