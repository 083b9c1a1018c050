package bests

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// FreshIndex is what fresh runs bring the browse index, gathered in memory
// rather than read back from their rows: for each table of bests the best
// of their cells per key (offerCells), their runs per browse group, and
// the history's best cells per key and runs per version (bulkHistory).
// Package store's InsertRuns gathers a batch's; a bulk load gathers its
// runs' until its Finish (Offer). The rules are the upload's (eachOffer,
// freshHistoryRankable), and so are the rows it leaves
// (TestInsertRunsMatchesInsertRun, TestBulkMatchesInsertRun).
type FreshIndex struct {
	best    bestMaps
	groups  map[groupKey]groupRow
	history bulkHistory
	// unpowered counts the runs at each point of each setup that a
	// tokens-per-joule board leaves out (unpowered.go).
	unpowered map[unpoweredKey]int64
}

// NewFreshIndex is an empty FreshIndex.
func NewFreshIndex() *FreshIndex {
	return &FreshIndex{best: newBestMaps(), groups: map[groupKey]groupRow{}, unpowered: map[unpoweredKey]int64{}}
}

// Add gathers fresh run r, stored under id at uploaded.
func (x *FreshIndex) Add(id string, r *run.Run, uploaded time.Time) {
	x.history.offer(id, r, uploaded)
	ids := runIdentities(r)
	gk := groupKey{ids[2].Slug, ids[0].Slug, ids[1].Slug, r.Engine.Version, ids[5].Slug}
	x.groups[gk] = groupRow{base: ids[3].Slug, runs: x.groups[gk].runs + 1}
	offerCells(x.best, id, r, uploaded)
	addUnpowered(x.unpowered, r)
}

// Queue queues on b the offers and counts of what x gathered, in lock
// order (the package comment's steps 5 to 7, after QueueBestLockShared),
// each statement only when it has rows.
// Every offer goes, consulting no handle's bounds (bestBounds) and teaching
// none: a batch's offers are of many groups at once, and a bound holds one
// upload's; an offer never makes a best worse, so the bounds stay true.
func (x *FreshIndex) Queue(b *pgx.Batch) {
	for i, t := range bestTables {
		if len(x.best[i]) > 0 {
			b.Queue(t.offer, t.offerArgs(offersOf(x.best[i]))...)
		}
	}
	x.queueCounts(b)
	if len(x.history.cells) > 0 {
		b.Queue(offerHistorySQL, x.history.args()...)
	}
}

// queueCounts queues on b the statements that count what x gathered
// (steps 6 of the lock order).
func (x *FreshIndex) queueCounts(b *pgx.Batch) {
	if len(x.groups) > 0 {
		n := len(x.groups)
		models, bases, hardware, engines := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
		versions, quants := make([]string, 0, n), make([]string, 0, n)
		runs, historyRuns := make([]int64, 0, n), make([]int64, 0, n)
		for k, g := range x.groups {
			models, bases, hardware, engines = append(models, k.model), append(bases, g.base), append(hardware, k.hardware), append(engines, k.engine)
			versions, quants = append(versions, k.version), append(quants, k.quantization)
			// Every run a history reads is in its group.
			runs, historyRuns = append(runs, g.runs), append(historyRuns, x.history.versions[k].runs)
		}
		b.Queue(countGroupsSQL, models, bases, hardware, engines, versions, quants)
		b.Queue(countVersionsSQL, models, bases, hardware, engines, versions, quants, historyRuns)
		b.Queue(countDeltasSQL, models, bases, hardware, engines, versions, quants, runs, historyRuns)
	}
	queueCountUnpowered(b, x.unpowered)
}

// Offer sends what x gathered to the stored index in tx, in lock order
// (bestLock shared, then Queue's statements), and folds the counts: a
// bulk load's Finish. With skipTriggers the session skips the foreign-key
// triggers while it offers: every run_id is a stored run's (package
// store's NewBulk says when it may).
func (x *FreshIndex) Offer(ctx context.Context, tx pgx.Tx, skipTriggers bool) error {
	batch := &pgx.Batch{}
	QueueBestLockShared(batch)
	// Each offer sorts its rows into lock order: hundreds of thousands
	// of them, which the default 4 MB sorted on disk.
	batch.Queue(`SET LOCAL work_mem = '256MB'`)
	if skipTriggers {
		batch.Queue(`SET LOCAL session_replication_role = replica`)
	}
	x.Queue(batch)
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	// As an upload does, the load made the rows of new groups and
	// versions before the fold, so the fold only updates rows no
	// upload locks.
	_, err := foldCounts(ctx, tx)
	return err
}

// Write is Offer into tables of bests and history_cells that hold no row
// yet (a bulk load into an empty database): the same rows Offer would
// leave there, each the best of its key, copied in the order of the
// table's primary key instead of upserted. An upsert of a load's offers
// cost 20-90 µs a row (most of a 100,000-run load's last 90 s went to
// version_best_cells' 1.3 million); a COPY appends to the key's index. A
// row the table held already would fail the COPY on its key, not merge.
func (x *FreshIndex) Write(ctx context.Context, tx pgx.Tx, skipTriggers bool) error {
	batch := &pgx.Batch{}
	QueueBestLockShared(batch)
	if skipTriggers {
		batch.Queue(`SET LOCAL session_replication_role = replica`)
	}
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return fmt.Errorf("browse index: %w", err)
	}
	for i, t := range bestTables {
		offers := offersOf(x.best[i])
		slices.SortFunc(offers, t.keyOrder)
		_, err := tx.CopyFrom(ctx, pgx.Identifier{t.name}, bestCopyColumns, pgx.CopyFromSlice(len(offers), func(i int) ([]any, error) {
			k, v := &offers[i].k, &offers[i].v
			return []any{k.context, k.concurrency, k.metric, k.status, k.model, v.base, k.hardware, k.engine, k.quantization,
				k.demo, v.sortValue, v.value, v.runID, v.uploaded, v.shown.engineVersion, v.shown.submitter, v.shown.submitterSlug}, nil
		}))
		if err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	batch = &pgx.Batch{}
	x.queueCounts(batch)
	if err := tx.SendBatch(ctx, batch).Close(); err != nil {
		return fmt.Errorf("browse counts: %w", err)
	}
	if err := x.history.copy(ctx, tx); err != nil {
		return fmt.Errorf("history_cells: %w", err)
	}
	_, err := foldCounts(ctx, tx)
	return err
}
