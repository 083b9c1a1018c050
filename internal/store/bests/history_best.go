package bests

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// A setup's history reads two tables kept current as runs change
// (migration 0016, history_best_sql.go), so that it reads a few rows by
// key however many runs its setup has:
//
//   - history_cells: the best valid total tok/s per setup, engine version
//     and cell, among the runs historyRankable picks;
//   - history_versions: how many such runs each setup and version has,
//     folded from browse_count_deltas as the browse counts are;
//   - history_setups: how many versions each setup has (its
//     history_versions rows, migration 0021), for the entity pages' links.
//
// An upload offers its run's cells from memory (offer_run_history.sql, in
// its batch) and counts it with its browse group's deltas
// (count_run_versions.sql), locking no existing row: uploads of one setup and
// version do not wait for each other's commit. Whatever else changes a
// run's cells or rankability (hide, show, delete, deriving again, new
// flags) rebuilds the browse group of the run (RebuildGroup), and with it
// the run's setup and version here (rebuildHistoryOf); RebuildAll
// rebuilds both tables (rebuildAllHistory); the bulk load keeps them in
// memory (bulkHistory).

// historyCell reports whether cell c of a run is one a history shows: valid,
// with a positive total tok/s.
func historyCell(c *run.DecodeCell) bool {
	return c.Status == run.Valid && c.TotalTPS != nil && *c.TotalTPS > 0
}

// freshHistoryRankable is historyRankable's rule in Go for a run being
// stored, which is not hidden: its runs row will hold r's engine version,
// its above-bound flag and its profile (insertRun, BrowseColumns).
func freshHistoryRankable(r *run.Run) bool {
	return r.Engine.Version != "" && r.Profile != "quick" && !run.Unrankable(r.Flags)
}

// The offers of fresh runs' valid cells to history_cells: one run's, its
// row read by key (offerRunHistoryArgs), or cells kept in memory, one per
// key (FreshIndex). After the counts, in lock order (the package comment).
var (
	offerRunHistorySQL = sqlFile("offer_run_history")
	offerHistorySQL    = sqlFile("offer_history")
)

// offerRunHistoryArgs are offerRunHistorySQL's parameters for fresh run r,
// stored under id, or nil when none of its cells is one a history reads:
// then nothing is offered. Only the cells of a run a history reads are
// sent (freshHistoryRankable): the statement would find nothing for the
// others, and a run that names no engine version, as many uploads do,
// sends no statement at all.
func offerRunHistoryArgs(id string, r *run.Run) []any {
	if !freshHistoryRankable(r) {
		return nil
	}
	var cellIDs []string
	var contexts, concurrencies []int
	var tps []float64
	for j := range r.Decode {
		if c := &r.Decode[j]; historyCell(c) {
			cellIDs, tps = append(cellIDs, id), append(tps, *c.TotalTPS)
			contexts, concurrencies = append(contexts, c.Context), append(concurrencies, c.Concurrency)
		}
	}
	if len(cellIDs) == 0 {
		return nil
	}
	return []any{id, cellIDs, contexts, concurrencies, tps}
}

// rebuildHistoryOf derives run id's setup and engine version in both
// tables again from its runs, and the setup's count of versions: after the run was hidden, shown, derived
// again, or before it is deleted. The pending counts are folded first, so
// the ones of this version are not added again to its derived count. One
// round trip. The caller holds LockBest, so every upload's deltas are
// committed and the fold sees them all.
func rebuildHistoryOf(ctx context.Context, tx pgx.Tx, id string) error {
	b := &pgx.Batch{}
	b.Queue(`SELECT pg_advisory_xact_lock($1)`, foldLock)
	b.Queue(foldCountsSQL)
	for _, sql := range rebuildHistoryOfSQL {
		b.Queue(sql, id)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("rebuild history: %w", err)
	}
	return nil
}

// rebuildAllHistory derives the tables again from every run, as migration
// 0016 filled them. The caller holds LockBest and has dropped the pending
// counts (recountAll), which would otherwise be added again.
func rebuildAllHistory(ctx context.Context, tx pgx.Tx) error {
	for _, sql := range []string{`DELETE FROM history_cells`, `DELETE FROM history_versions`, `DELETE FROM history_setups`,
		`INSERT INTO history_cells ` + historyCellsColumns + historyCellsFrom(`true`),
		`INSERT INTO history_versions ` + historyVersionsColumns + historyVersionsFrom(`true`),
		`INSERT INTO history_setups ` + historySetupsColumns + historySetupsFrom(`history_versions`)} {
		if _, err := tx.Exec(ctx, sql); err != nil {
			return fmt.Errorf("rebuild history: %w", err)
		}
	}
	return nil
}
