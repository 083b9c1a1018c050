package bests

import (
	"context"
	"fmt"
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
// A fresh run enters it alone (QueueIndexRun: an upload, a restore) or
// with others (FreshIndex: store.InsertRuns, a bulk load), by the same rules,
// in the same lock order (the package comment).

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
	return slugs, []any{kinds, named, names}
}

// BrowseColumns are the browse index's columns of r's runs row, as
// package store's insert_run.sql writes them: its slugs in identityKinds'
// order, the catalog version, its headline numbers (runNumbers) and its
// plausibility flags: whether any is raised, which every ranking reads,
// the version they were derived with, and which (StoredFlags).
func BrowseColumns(r *run.Run) []any {
	args := make([]any, 0, len(identityKinds)+6)
	for _, ident := range runIdentities(r) {
		args = append(args, ident.Slug)
	}
	single, peak := runNumbers(r.Decode)
	return append(args, catalog.Version, single, peak, run.Unrankable(r.Flags), r.BoundVersion, StoredFlags(r.Flags))
}

// StoredFlags is flags as runs.flags holds them: never NULL, an empty
// array for none.
func StoredFlags(flags []string) []string {
	if flags == nil {
		return []string{}
	}
	return flags
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

// IndexRun files a freshly inserted run (its row, with its slugs, numbers
// and flags, and its cells already written in tx; uploaded at uploaded)
// for browsing, in one round trip: a restore's (QueueIndexRun).
func IndexRun(ctx context.Context, tx pgx.Tx, id string, r *run.Run, uploaded time.Time) error {
	b := &pgx.Batch{}
	QueueIndexRun(b, id, r, uploaded, nil)
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	return nil
}

// QueueIndexRun queues on b the statements that file fresh run r (its
// row and cells queued or written before them) for browsing, in lock
// order (the package comment): the names of its slugs, bestLock, its cells
// offered to each table of bests, its counts, its cells offered to the
// history. An upload passes u (StartUpload), which leaves out the offers
// its Bests handle's bounds say cannot win (bestBounds) and keeps them to
// learn from after the commit; with u nil (a restore) every offer goes.
func QueueIndexRun(b *pgx.Batch, id string, r *run.Run, uploaded time.Time, u *BoundedUpload) {
	_, names := identityArgs([]*run.Run{r})
	b.Queue(nameIdentitiesSQL, names...)
	QueueBestLockShared(b)
	offers := runOffers(id, r, uploaded)
	for i, t := range bestTables {
		switch offers := offers[i]; {
		case len(offers) == 0:
		case len(offers) > maxRunOffers:
			u.offered(i, offers)
			b.Queue(t.offer, t.offerArgs(offers)...)
		default:
			b.Queue(t.offerRun, t.offerRunArgs(offers, u.marks(i, offers), u.epochOr0())...)
		}
	}
	queueCountRun(b, id, 1)
	unpowered := map[unpoweredKey]int64{}
	addUnpowered(unpowered, r)
	queueCountUnpowered(b, unpowered)
	if args := offerRunHistoryArgs(id, r); args != nil {
		b.Queue(offerRunHistorySQL, args...)
	}
}

// lockBestSharedSQL takes bestLock shared, as whoever offers to the tables
// of bests does (browse_rebuild.go).
const lockBestSharedSQL = `SELECT pg_advisory_xact_lock_shared($1)`

// QueueBestLockShared queues on b the statement that takes bestLock
// shared: step 4 of the lock order, before any offer.
func QueueBestLockShared(b *pgx.Batch) { b.Queue(lockBestSharedSQL, bestLock) }

// NameIdentities is the statement, with its parameters, that names the
// identities of runs (nameIdentitiesSQL): step 3 of the lock order.
func NameIdentities(runs []*run.Run) (sql string, args []any) {
	_, names := identityArgs(runs)
	return nameIdentitiesSQL, names
}
