package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// The browse index is what lists, the leaderboard and entity pages read
// instead of scanning runs: each run's identity slugs and headline
// numbers, the names of the slugs (identities), the best cell per group
// (best_cells), per group and engine version (version_best_cells) and
// per group and submitter (submitter_best_cells), the
// runs per identity combination (browse_groups) and per identity
// (identity_runs, engine_version_runs; browse_counts.go).
// A fresh run enters it through indexNewRuns, alone (InsertRun) or in a
// batch (InsertRuns): the same statements either way (browse_index_sql.go),
// naming their runs in one of two shapes (runsShape).
//
// Lock order. Uploads of runs that share identities lock the same rows, and
// two transactions that lock two rows in opposite orders deadlock (PostgreSQL
// aborts one: SQLSTATE 40P01). So an upload takes its locks in one order:
//
//  1. the runs rows it inserts, a batch by short id (only an upload of the
//     same document waits for one);
//  2. bulkLock, for a batch;
//  3. identities rows, by (kind, slug): nameIdentitiesSQL;
//  4. bestLock, shared;
//  5. best_cells rows, then version_best_cells rows, then
//     submitter_best_cells rows, each by key: bestTable.offerSQL;
//  6. new browse_groups rows, by key, then new history_versions rows, by
//     key, then the history_setups rows of those new versions' setups, by
//     key: countRunsSQL (an existing row is not locked; the runs go to
//     browse_count_deltas, which nobody locks; an upload that brings no
//     setup a new version locks no history_setups row);
//  7. history_cells rows, by key: queueOfferHistory (history_best.go);
//  8. foldLock, then browse_groups, identity_runs, engine_version_runs and
//     history_versions rows, each by key: foldCountsSQL, never in an
//     upload (browse_counts.go).
//
// The sorted orders are ORDER BY in the statements: an insert, and ON
// CONFLICT, lock rows in the order the SELECT yields them. The best_epoch
// row is read by uploads, never locked by them; only holders of bestLock
// exclusive (lockBest) and whatever deletes rows of a table of bests
// update it (best_bounds.go). A transaction
// that rebuilds best cells (browse_rebuild.go) holds bestLock exclusively
// before it touches best_cells, browse_groups or an existing run, so no
// upload holds any of those rows meanwhile, and an upload waiting for
// bestLock holds only rows a rebuild never needs.

// identityKinds names a run's identities as the identities table does, in
// the order runIdentities returns them and setIdentitiesSQL takes their
// slugs ($2…$7).
var identityKinds = [...]string{KindHardware, KindEngine, KindModel, KindModelBase, KindSubmitter, KindQuantization}

// runIdentities are the catalog identities of a run, in identityKinds' order.
func runIdentities(r *run.Run) [len(identityKinds)]catalog.Identity {
	model, base := catalog.Model(r.Model.ID)
	quant := catalog.Identity{Slug: catalog.Slugify(r.Engine.Quantization), Name: r.Engine.Quantization}
	// Only a proven name is a submitter identity: a name typed without a
	// token or session has no page and no filter, so it can never be
	// listed among an account's runs.
	var submitter catalog.Identity
	if r.SubmitterVerified {
		submitter = catalog.Submitter(r.Submitter)
	}
	return [...]catalog.Identity{catalog.Hardware(r.Hardware), catalog.Engine(r.Engine.Name), model, base,
		submitter, quant}
}

// runsShape is how an index statement names the runs it files: one run by
// text parameters, or a batch by text[] parameters.
type runsShape struct {
	one bool
	// slugs is the runs' ids and slugs as a relation of seven text columns,
	// parameters $1…$7.
	slugs string
	// ids is a condition that an id is one of the runs' ($1).
	ids string
}

// The two shapes. PostgreSQL plans a prepared statement once for all its
// calls (a generic plan) after a few calls, and keeps the plan while the
// tables grow. For an array parameter, a plan made while the tables were
// small reads them whole (decode_cells by status, runs by a sequential
// scan): from an empty database, four clients uploading at once ran at half
// the rate of text parameters, whose plan probes the primary key at any
// size (TestOneRunIndexPlansProbeKeys). A batch of hundreds of runs is
// worth arrays.
var (
	oneRun = runsShape{one: true, ids: "= $1",
		slugs: "(VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text))"}
	runBatch = runsShape{ids: "= ANY($1)",
		slugs: "unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])"}
)

// shapeFor is the shape for n runs.
func shapeFor(n int) runsShape {
	if n == 1 {
		return oneRun
	}
	return runBatch
}

// params returns, in sh's shape, the runs whose ids are ids (the parameter
// $1 of countRunsSQL) and the parameters of
// setIdentitiesSQL, given the runs' slugs by kind.
func (sh runsShape) params(ids []string, slugs [len(identityKinds)][]string) (runs any, set []any) {
	runs = ids
	if sh.one {
		runs = ids[0]
	}
	set = []any{runs}
	for _, s := range slugs {
		if sh.one {
			set = append(set, s[0])
		} else {
			set = append(set, s)
		}
	}
	return runs, append(set, catalog.Version)
}

// identityArgs returns the slugs of runs by kind, in identityKinds' order,
// and the parameters of nameIdentitiesSQL that name them.
func identityArgs(runs []*run.Run) (slugs [len(identityKinds)][]string, name []any) {
	var kinds, named, names []string
	for _, r := range runs {
		for k, ident := range runIdentities(r) {
			slugs[k] = append(slugs[k], ident.Slug)
			if ident.Slug != "" {
				kinds, named, names = append(kinds, identityKinds[k]), append(named, ident.Slug), append(names, ident.Name)
			}
		}
	}
	return slugs, []any{textArray(kinds), textArray(named), textArray(names)}
}

// browseRowArgs are the browse index's columns of r's runs row, as
// insertRunSQL writes them: its slugs in identityKinds' order, the catalog
// version, its headline numbers (runNumbers) and its plausibility flags.
func browseRowArgs(r *run.Run) []any {
	args := make([]any, 0, len(identityKinds)+5)
	for _, ident := range runIdentities(r) {
		args = append(args, ident.Slug)
	}
	single, peak := runNumbers(r.Decode)
	return append(args, catalog.Version, single, peak, slices.Contains(r.Flags, run.FlagAboveBound), r.BoundVersion)
}

// runNumbers are what runNumbersSet computes from the stored cells, from
// the cells in memory: the total tok/s of the valid cell at concurrency 1
// with the smallest context, and the highest valid total tok/s (nil when
// no cell has one).
func runNumbers(cells []run.DecodeCell) (single, peak *float64) {
	singleContext, found := 0, false // a context of 0 is a real cell
	for i := range cells {
		c := &cells[i]
		if c.Status != run.Valid {
			continue
		}
		if c.TotalTPS != nil && (peak == nil || *c.TotalTPS > *peak) {
			peak = c.TotalTPS
		}
		if c.Concurrency == 1 && (!found || c.Context < singleContext) {
			single, singleContext, found = c.TotalTPS, c.Context, true
		}
	}
	return single, peak
}

// indexNewRuns files freshly inserted runs (rows, with their slugs,
// numbers and flags, and cells already written in tx; uploaded at the
// times given) for browsing: the
// names of their slugs, their cells offered to the leaderboard, and their
// groups' counts. One round trip, whether ids holds one run or a batch; a
// batch leaves what its runs indexed one by one in order would
// (TestInsertRunsMatchesInsertRun).
func indexNewRuns(ctx context.Context, tx pgx.Tx, ids []string, runs []*run.Run, uploaded []time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	b := &pgx.Batch{}
	queueIndexNewRuns(b, ids, runs, uploaded, nil)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	return nil
}

// queueIndexNewRuns queues indexNewRuns' statements on b, in lock order,
// for a caller that sends them with statements of its own. An upload of
// one run passes u, which leaves out the offers its Store's bounds say
// cannot win (bestBounds) and keeps them to learn from after the commit;
// with u nil (a batch, a restore) every offer goes.
func queueIndexNewRuns(b *pgx.Batch, ids []string, runs []*run.Run, uploaded []time.Time, u *boundedUpload) {
	_, names := identityArgs(runs)
	b.Queue(nameIdentitiesSQL, names...)
	b.Queue(`SELECT pg_advisory_xact_lock_shared($1)`, bestLock)
	queueOffersAndCounts(b, ids, runs, uploaded, u)
}

// queueOffersAndCounts queues queueIndexNewRuns' statements past bestLock,
// which the transaction holds by then: the offers to the tables of bests,
// the counts and the offer to the history; for one run, all of them as
// one statement (offersAndCounts). An upload of one run queues it after
// uploadWrites, which names the run's identities and takes the lock.
func queueOffersAndCounts(b *pgx.Batch, ids []string, runs []*run.Run, uploaded []time.Time, u *boundedUpload) {
	which := any(ids)
	if len(ids) == 1 {
		which = ids[0]
	}
	sh := shapeFor(len(ids))
	if len(ids) == 1 {
		sql, args := offersAndCounts(ids[0], runOffers(ids[0], runs[0], uploaded[0]), u, runs[0])
		b.Queue(sql, args...)
		return
	}
	best := newBestMaps()
	for i, r := range runs {
		offerCells(best, ids[i], r, uploaded[i])
	}
	for i, t := range bestTables {
		if len(best[i]) > 0 {
			b.Queue(t.offer, t.offerBestArgs(best[i])...)
		}
	}
	b.Queue(sh.countRunsSQL(), which, 1)
	queueOfferHistory(b, sh, which, ids, runs)
}
