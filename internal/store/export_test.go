package store

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Hooks for the external tests (package store_test, which must be external
// because dbtest imports store).

// RunIDs exposes runIDs.
var RunIDs = runIDs

// Transact exposes transact.
func Transact(ctx context.Context, s *Store, fn func(pgx.Tx) error) error {
	return s.transact(ctx, pgx.TxOptions{}, fn)
}

// RebuildAllBest recomputes best_cells and browse_groups from every run, as
// the backfill does: what the kept-current index must equal.
func RebuildAllBest(ctx context.Context, s *Store) error {
	return s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		if err := lockBest(ctx, tx); err != nil {
			return err
		}
		return rebuildAllBest(ctx, tx)
	})
}

// InsertRunHeld stores r under dedupe key key in one transaction, as an
// upload does (its row, its cells, then indexNewRuns' statements), and
// calls held before the commit, with every lock the upload takes still
// held. It returns the run's id.
func InsertRunHeld(ctx context.Context, s *Store, r *run.Run, key string, held func()) (id string, err error) {
	id, _ = runIDs(key)
	uploaded := r.UploadedAt.UTC().Truncate(time.Microsecond)
	return id, s.transact(ctx, pgx.TxOptions{}, func(tx pgx.Tx) error {
		sql, args := insertRun(id, key, uploaded, r)
		if _, err := tx.Exec(ctx, sql, args...); err != nil {
			return err
		}
		if err := copyDecodeCells(ctx, tx, id, r.Decode); err != nil {
			return err
		}
		if err := indexNewRuns(ctx, tx, []string{id}, []*run.Run{r}, []time.Time{uploaded}); err != nil {
			return err
		}
		held()
		return nil
	})
}

// IndexSQL is the browse index's statements that name their runs, for one
// run (one) or a batch, with a literal list of parameters for each that
// EXECUTE accepts.
func IndexSQL(one bool) map[string]string {
	sh, ids, slug := runBatch, `'{a}'`, `'{a}'`
	if one {
		sh, ids, slug = oneRun, `'a'`, `'a'`
	}
	set := ids + strings.Repeat(", "+slug, len(identityKinds)) + ", 1"
	offer := `'{0}', '{1}', '{total_tps}', '{valid}', '{m}', '{b}', '{h}', '{e}', '{q}', '{true}', '{-1}', '{1}', '{a}', '{2026-12-01}'`
	if !one {
		return map[string]string{sh.setIdentitiesSQL(): set, groupBests.offer: offer, versionBests.offer: offer + `, '{v}'`,
			submitterBests.offer: offer + `, '{s}'`, sh.countRunsSQL(): ids + ", 1"}
	}
	// A run's offers, by subscript and by unnest (cellsInsert).
	offer = `'{0}', '{1}', '{total_tps}', '{valid}', '{-1}', '{1}', 'm', 'b', 'h', 'e', 'q', true, 'a', '2026-12-01'`
	marks := `, '{false}', 0` // none marked: every offer probes
	return map[string]string{sh.setIdentitiesSQL(): set,
		// An upload's one statement of offers and counts, with every part.
		fullOffersAndCountsSQL(): offer + marks + ", " + offer + `, 'v'` + marks + ", " + offer + `, 's'` + marks +
			`, 'a', 1, 'a', '{a}', '{0}', '{1}', '{2.5}'`,
		groupBests.offerOne.indexed: offer + marks, versionBests.offerOne.indexed: offer + `, 'v'` + marks,
		groupBests.offerOne.unnest: offer + marks, versionBests.offerOne.unnest: offer + `, 'v'` + marks,
		submitterBests.offerOne.indexed: offer + `, 's'` + marks, submitterBests.offerOne.unnest: offer + `, 's'` + marks,
		sh.countRunsSQL(): ids + ", 1"}
}

// fullOffersAndCountsSQL is offersAndCounts' text for a run with every
// part: offers to the three tables of bests (by subscript) and to the
// history.
func fullOffersAndCountsSQL() string {
	v := 10.0
	r := &run.Run{Engine: run.Engine{Name: "vLLM", Version: "0.8.0"}, Model: run.Model{ID: "Qwen/Qwen3-8B"},
		Submitter: "someone", SubmitterVerified: true,
		Decode: []run.DecodeCell{{Status: run.Valid, Metrics: run.Metrics{TotalTPS: &v}}}}
	sql, _ := offersAndCounts("a", runOffers("a", r, time.Now()), nil, r)
	return sql
}

// FoldCountsSQL is the statement that folds the run counts' deltas.
const FoldCountsSQL = foldCountsSQL

// CountSQL is the statements that read the counts kept per identity, each
// with a parameter and the table of counts it is to read.
var CountSQL = []struct{ SQL, Arg, Table string }{
	{countIdentitiesSQL, KindHardware, "identity_runs"},
	{engineVersionsSQL, "vllm", "engine_version_runs"},
}

// BackupLeftOut exposes backupLeftOut.
var BackupLeftOut = backupLeftOut

// ScaleSQL is the statements migration 0014 gave an index of their own,
// each with (the start of) the name of the index it is to read through
// and parameters for EXECUTE.
var ScaleSQL = []struct{ SQL, Index, Params string }{
	{sitemapRunsSQL, "runs_sitemap_idx", "50000"},
	{rebuildHistoryOfSQL[1], "runs_setup_", "'a'"},
	{rebuildHistoryOfSQL[3], "runs_setup_", "'a'"},
}

// LiveLeaderboard is Leaderboard ranked from the runs' own cells whatever
// the filter: what a board read from a table of bests must equal.
func (s *Store) LiveLeaderboard(ctx context.Context, lq LeaderQuery) ([]LeaderRow, error) {
	return s.leaderboard(ctx, lq, true)
}

// UploadWrites exposes uploadWrites.
var UploadWrites = uploadWrites

// JoinWrites is joinCTEs of one part per statement in writes, each a write
// to run in turn, and with it, first, a part that only reads (a CTE not
// marked run) of read: the statement an upload would send for them.
func JoinWrites(read string, writes []string) string {
	parts := []part{{ctes: []cte{{name: "r", sql: read}}}}
	for i, w := range writes {
		parts = append(parts, part{ctes: []cte{{name: "w" + string(rune('a'+i)), sql: w, run: true}}})
	}
	return joinCTEs(parts)
}

// Renumber exposes renumber.
var Renumber = renumber
