package store

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/bests"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// The bulk load is how `speedmatrix demo` reaches a million runs. Bulk.CopyRuns
// writes every row of a batch with COPY, the browse columns of runs
// computed in Go as an upload's are (BrowseColumns), and keeps each
// group's best cells and run counts in memory (FreshIndex) instead of
// offering them batch by batch; Bulk.Finish offers them to the tables of
// bests, the counts and the history in one statement each (the demo calls
// FinishInBackground every 250,000 runs and Finish at the end), with the
// upload path's rule (better replaces stored; counts add). Between the two
// the leaderboard and entity pages lag behind the lists; after Finish the
// tables are those InsertRun would have left (TestBulkMatchesInsertRun).
// Bulk.Close then builds the indexes a load into an empty database
// deferred (bulk_indexes.go).

// bulkRunColumns are the columns CopyRuns writes to runs: those
// insert_run.sql writes but the account and organisation.
var bulkRunColumns = append(append([]string{"id", "dedupe_key"}, splitColumns(runColumns)...),
	"hardware_slug", "engine_slug", "model_slug", "model_base_slug", "submitter_slug", "quantization_slug",
	"catalog_version", "best_single_tps", "best_peak_tps", "above_bound", "bound_version", "flags")

// Bulk is one bulk load: CopyRuns for every batch, in order, from one
// goroutine, then Finish.
type Bulk struct {
	s *Store
	// index is what the runs copied since the last Finish bring the
	// browse index.
	index *bests.FreshIndex
	// replica: the role may skip the foreign-key triggers while it copies
	// rows whose runs it wrote in the same transaction.
	replica bool
	// deferred: the load began on an empty database and builds most of
	// its tables' indexes in Close (bulk_indexes.go).
	deferred bool
	// empty: the tables of bests and history_cells hold no row yet (the
	// load began on an empty database and has not finished): the load
	// gathers every run's bests until Finish, which copies them in
	// (FreshIndex.Write). Their keys are few (some two million at a
	// million runs, the best per key), where offering them every 250,000
	// runs upserted most of them four times, each offer a minute of one
	// backend beside the copies.
	empty bool
	// finishing is the outcome of the offer FinishInBackground started,
	// nil when none is pending.
	finishing chan error
}

// NewBulk starts a bulk load. It first builds what an interrupted load left
// deferred; then, on an empty database, it defers the indexes of the
// tables the load fills until Close.
func (s *Store) NewBulk(ctx context.Context) (_ *Bulk, err error) {
	defer db.Wrap(&err, "NewBulk")
	b := &Bulk{s: s, index: bests.NewFreshIndex()}
	if err := s.BuildDeferredIndexes(ctx); err != nil {
		return nil, err
	}
	if b.deferred, err = s.deferIndexes(ctx); err != nil {
		return nil, err
	}
	b.empty = b.deferred
	// Checking that each of tens of millions of cells has its run costs
	// more than copying it; a superuser can skip the check, and the rows
	// are right by construction (their runs go in first, in the same
	// transaction). Anyone else pays for it.
	err = s.db.Pool().QueryRow(ctx, `SELECT rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&b.replica)
	return b, err
}

// CopyRuns stores runs in one transaction with COPY and returns what
// InsertRuns would: a run whose dedupe key is stored already (or appears
// earlier in runs) is not stored again, and a run takes its long id when
// another key holds the short one. It refuses runs with a verified
// submitter, which belong to an account: the bulk load is for demo data.
func (b *Bulk) CopyRuns(ctx context.Context, runs []NewRun) (_ []Inserted, err error) {
	defer db.Wrap(&err, "CopyRuns(%d runs)", len(runs))
	uploaded := make([]time.Time, len(runs))
	for i, nr := range runs {
		if nr.DedupeKey == "" {
			return nil, fmt.Errorf("run %d: empty dedupe key", i)
		}
		if nr.Run.SubmitterVerified {
			return nil, fmt.Errorf("run %d: a verified submitter's run goes through InsertRun", i)
		}
		uploaded[i] = nr.Run.UploadedAt
		if uploaded[i].IsZero() {
			uploaded[i] = time.Now()
		}
		uploaded[i] = uploaded[i].UTC().Truncate(time.Microsecond)
	}
	out := make([]Inserted, len(runs))
	err = b.s.db.TransactChange(ctx, db.SiteChange(func(tx pgx.Tx) error {
		return b.copyRuns(ctx, tx, runs, uploaded, out)
	}))
	if err != nil {
		return nil, err
	}
	for i, nr := range runs {
		if out[i].Created {
			nr.Run.ID, nr.Run.UploadedAt, nr.Run.Revision = out[i].ID, uploaded[i], 1
			b.index.Add(out[i].ID, nr.Run, uploaded[i])
		}
	}
	return out, nil
}

// copyRuns is CopyRuns' transaction.
func (b *Bulk) copyRuns(ctx context.Context, tx pgx.Tx, runs []NewRun, uploaded []time.Time, out []Inserted) error {
	if err := assignIDs(ctx, tx, runs, out); err != nil {
		return err
	}
	var rows [][]any
	var fresh []*run.Run
	for i, nr := range runs {
		if out[i].Created {
			rows = append(rows, bulkRunRow(out[i].ID, nr, uploaded[i]))
			fresh = append(fresh, nr.Run)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	if b.replica {
		if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
			return err
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"runs"}, bulkRunColumns, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	if err := copyBatch(ctx, tx, runs, out); err != nil {
		return err
	}
	sql, args := bests.NameIdentities(fresh)
	if _, err := tx.Exec(ctx, sql, args...); err != nil {
		return fmt.Errorf("name identities: %w", err)
	}
	return nil
}

// Finish offers the best cells, group counts and history cells of the
// runs copied since the last Finish to the stored ones, as the upload path
// does (a better cell replaces the stored best; counts add up), or copies
// them into the tables while they are empty (Bulk.empty), folds the counts,
// and refreshes the planner's statistics (in a load that deferred the
// indexes, Close does). It announces a reset: every leaderboard and entity
// page may have changed. A long load onto stored runs calls it now and
// then (or FinishInBackground), so that what an interruption leaves
// unranked, and what the load holds in memory, stay small. It first waits
// for an offer FinishInBackground started.
func (b *Bulk) Finish(ctx context.Context) (err error) {
	defer db.Wrap(&err, "Bulk.Finish")
	if err := b.wait(); err != nil {
		return err
	}
	index := b.index
	b.index = bests.NewFreshIndex()
	if err := b.offer(ctx, index, b.empty); err != nil {
		return err
	}
	b.empty = false
	return nil
}

// FinishInBackground is Finish on its own connection while the load goes
// on: an offer keeps one backend busy for a minute at a million runs, while
// the generator and the copies, which it does not touch, would wait idle.
// Offers commute (the better cell wins whichever comes first; counts add),
// so the tables end the same. It first waits for the previous one; the
// next Finish, FinishInBackground or Close waits for this one and returns
// its error.
//
// While the tables of bests are empty (Bulk.empty) it does nothing: the
// runs' bests stay gathered for Finish.
func (b *Bulk) FinishInBackground(ctx context.Context) error {
	if err := b.wait(); err != nil {
		return err
	}
	if b.empty {
		return nil
	}
	index := b.index
	b.index = bests.NewFreshIndex()
	done := make(chan error, 1)
	b.finishing = done
	go func() { done <- b.offer(ctx, index, false) }()
	return nil
}

// wait waits for the offer FinishInBackground started, if any.
func (b *Bulk) wait() error {
	if b.finishing == nil {
		return nil
	}
	err := <-b.finishing
	b.finishing = nil
	return err
}

// offer is Finish's work on index: offered to the stored bests, or copied
// into the tables when they are empty.
func (b *Bulk) offer(ctx context.Context, index *bests.FreshIndex, empty bool) error {
	write := index.Offer
	if empty {
		write = index.Write
	}
	err := b.s.db.TransactChange(ctx, func(tx pgx.Tx) (Change, error) {
		if err := write(ctx, tx, b.replica); err != nil {
			return Change{}, err
		}
		return Change{Reset: true}, nil
	})
	if err != nil || empty {
		// Tables that were empty are a load's that deferred their
		// indexes: Close analyzes them once those are built.
		return err
	}
	return b.s.Analyze(ctx)
}

// Close ends the load: it builds the indexes NewBulk deferred and
// refreshes the planner's statistics, which need them (an expression
// index's). Call it after the last Finish; without it the database keeps
// its rows but not those indexes, until the next load's NewBulk builds
// them.
func (b *Bulk) Close(ctx context.Context) (err error) {
	defer db.Wrap(&err, "Bulk.Close")
	if err := b.wait(); err != nil {
		return err
	}
	if !b.deferred {
		return nil
	}
	if err := b.s.BuildDeferredIndexes(ctx); err != nil {
		return err
	}
	b.deferred = false
	return b.s.Analyze(ctx)
}

// assignIDs settles each run as insertRunRow would: the id of its key when
// the key is stored (or earlier in the batch), else its short id, else its
// long id when another key holds the short one.
func assignIDs(ctx context.Context, tx pgx.Tx, runs []NewRun, out []Inserted) error {
	keys := make([]string, len(runs))
	var ids []string
	for i, nr := range runs {
		keys[i] = nr.DedupeKey
		short, long := runIDs(nr.DedupeKey)
		ids = append(ids, short, long)
	}
	byKey, taken := map[string]string{}, map[string]bool{}
	rows, _ := tx.Query(ctx, `SELECT id, dedupe_key FROM runs WHERE dedupe_key = ANY($1) OR id = ANY($2)`, keys, ids)
	var id, key string
	_, err := pgx.ForEachRow(rows, []any{&id, &key}, func() error {
		byKey[key], taken[id] = id, true
		return nil
	})
	if err != nil {
		return fmt.Errorf("stored ids: %w", err)
	}
	for i, key := range keys {
		if id, ok := byKey[key]; ok {
			out[i] = Inserted{ID: id}
			continue
		}
		short, long := runIDs(key)
		id := short
		if taken[short] {
			id = long
		}
		if taken[id] {
			return fmt.Errorf("id %s taken by another dedupe key", long)
		}
		out[i] = Inserted{ID: id, Created: true}
		byKey[key], taken[id] = id, true
	}
	return nil
}

// bulkRunRow is the runs row of nr in bulkRunColumns' order.
func bulkRunRow(id string, nr NewRun, uploaded time.Time) []any {
	r := nr.Run
	args := runRowArgs(id, nr.DedupeKey, uploaded, r)
	// runRowArgs leaves out revision, which insertRunSQL writes as 1, and
	// ends with the browse columns (BrowseColumns) and the organisation's
	// slug, which a bulk load has none of (CopyRuns takes no account's
	// runs).
	args = args[:len(args)-1]
	return append([]any{args[0], args[1], args[2], int64(1)}, args[3:]...)
}

// splitColumns turns a column list as runColumns spells it into names.
func splitColumns(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}
