package bests

import (
	"cmp"
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store/db"
)

// bestKey is a table of bests' primary key (bestTable.key): extra is the
// value of the table's extra column (the engine version, the submitter),
// empty in best_cells' keys.
type bestKey struct {
	context, concurrency                  int
	metric, status                        string
	model, hardware, engine, quantization string
	demo                                  bool
	extra                                 string
}

// bestGroup is a bestKey without its point: what every offer of one run
// to one table shares.
type bestGroup struct {
	model, hardware, engine, quantization string
	demo                                  bool
	extra                                 string
}

// bestPoint is the rest of a bestKey, in numbers: the metric's index in
// Metrics and the status's in bestStatuses. A key without strings hashes
// in a few nanoseconds; a load offers some 250 cells a run.
type bestPoint struct {
	context, concurrency int32
	metric, status       uint8
}

// bestStatuses are the cell statuses the tables of bests rank.
var bestStatuses = [...]string{string(run.Valid), string(run.Queued)}

func (k bestKey) group() bestGroup {
	return bestGroup{k.model, k.hardware, k.engine, k.quantization, k.demo, k.extra}
}

func (k bestKey) point() bestPoint {
	p := bestPoint{context: int32(k.context), concurrency: int32(k.concurrency)}
	for p.metric < uint8(len(Metrics)-1) && Metrics[p.metric] != k.metric {
		p.metric++
	}
	if k.status != bestStatuses[0] {
		p.status = 1
	}
	return p
}

// keyOf is the bestKey of group g at point p.
func keyOf(g bestGroup, p bestPoint) bestKey {
	return bestKey{int(p.context), int(p.concurrency), Metrics[p.metric], bestStatuses[p.status],
		g.model, g.hardware, g.engine, g.quantization, g.demo, g.extra}
}

// bestRow is the rest of a best_cells row.
type bestRow struct {
	base      string
	sortValue float64
	value     float64
	runID     string
	uploaded  time.Time
	shown     *runShown // nil in history_cells' rows, which keep none
}

// runShown is a run's values of bestShownColumns, shared by its offers:
// one pointer a row rather than three strings, since a load keeps some
// two million rows in memory (FreshIndex).
type runShown struct{ engineVersion, submitter, submitterSlug string }

// better is whether a ranks before b: smaller sort value, then the
// earlier upload, then the smaller id (ids are ASCII: byte order is the
// database's order), as the offers (offer_best_cells.sql) and RebuildGroup order them.
func (a bestRow) better(b bestRow) bool {
	if c := cmp.Compare(a.sortValue, b.sortValue); c != 0 {
		return c < 0
	}
	if c := a.uploaded.Compare(b.uploaded); c != 0 {
		return c < 0
	}
	return a.runID < b.runID
}

// groupKey is browse_groups' primary key (browseGroupKey).
type groupKey struct{ model, hardware, engine, version, quantization string }

type groupRow struct {
	base string
	runs int64
}

// offerCells keeps in best, for each table of bestTables, the rankable
// cells of fresh run r (stored under id at uploaded) that beat the best
// kept so far (eachOffer).
func offerCells(best bestMaps, id string, r *run.Run, uploaded time.Time) {
	// The run's group in each table and its points there, looked up
	// once: every offer of the run to a table has the same group.
	groups, points := make([]bestGroup, len(bestTables)), make([]map[bestPoint]bestRow, len(bestTables))
	eachOffer(id, r, uploaded, func(j int, k bestKey, row bestRow) {
		if g := k.group(); points[j] == nil || groups[j] != g {
			groups[j] = g
			if points[j] = best[j][g]; points[j] == nil {
				points[j] = map[bestPoint]bestRow{}
				best[j][g] = points[j]
			}
		}
		p := k.point()
		if old, ok := points[j][p]; !ok || row.better(old) {
			points[j][p] = row
		}
	})
}

// eachOffer calls offer with each rankable cell of fresh run r (stored
// under id at uploaded) and metric, once for each table of bestTables (j)
// that ranks it: bestTable.cellsSelect's rule in Go (a fresh run is not
// hidden; quick runs and runs above the bound never rank; versionBests
// keeps runs that name a version, submitterBests those that name a proven
// submitter).
func eachOffer(id string, r *run.Run, uploaded time.Time, offer func(j int, k bestKey, row bestRow)) {
	if r.Profile == "quick" || run.Unrankable(r.Flags) {
		return
	}
	ids := runIdentities(r)
	hw, engine, model, base, quant := ids[0].Slug, ids[1].Slug, ids[2].Slug, ids[3].Slug, ids[5].Slug
	shown := &runShown{engineVersion: r.Engine.Version, submitter: r.Submitter, submitterSlug: ids[4].Slug}
	extras := make([]string, len(bestTables)) // the run's value of each table's extra column
	for j, t := range bestTables {
		extras[j] = t.extraOf(r, ids[4].Slug)
	}
	for i := range r.Decode {
		c := &r.Decode[i]
		if c.Status != run.Valid && c.Status != run.Queued {
			continue
		}
		for _, m := range [...]struct {
			name string
			v    *float64
			sign float64
		}{{"total_tps", c.TotalTPS, -1}, {"per_request_tps", c.PerRequestTPS, -1}, {"ttft_ms", c.TTFTms, 1},
			{"tokens_per_joule", c.TokensPerJoule(), -1}} {
			if m.v == nil || !(*m.v > 0) {
				continue
			}
			k := bestKey{c.Context, c.Concurrency, m.name, string(c.Status), model, hw, engine, quant, r.Demo, ""}
			row := bestRow{base: base, sortValue: m.sign * *m.v, value: *m.v, runID: id, uploaded: uploaded, shown: shown}
			for j, t := range bestTables {
				if k.extra = extras[j]; t.extra != "" && k.extra == "" {
					continue
				}
				offer(j, k, row)
			}
		}
	}
}

// runOffers are the offers of fresh run r alone to each table of
// bestTables (an upload's), as offerCells keeps them and oneRunOffers
// lists them, in no order, without either's map: when no two of r's cells
// share a context and concurrency, no key is offered twice (the metrics
// of one cell differ), so every offer is kept as it comes. A run whose
// cells do share one goes by the maps.
func runOffers(id string, r *run.Run, uploaded time.Time) [][]bestOffer {
	out := make([][]bestOffer, len(bestTables))
	if !distinctPoints(r.Decode) {
		best := newBestMaps()
		offerCells(best, id, r, uploaded)
		for j := range out {
			out[j] = offersOf(best[j])
		}
		return out
	}
	n := make([]int, len(bestTables))
	eachOffer(id, r, uploaded, func(j int, _ bestKey, _ bestRow) { n[j]++ })
	for j := range out {
		out[j] = make([]bestOffer, 0, n[j])
	}
	eachOffer(id, r, uploaded, func(j int, k bestKey, row bestRow) { out[j] = append(out[j], bestOffer{k, row}) })
	return out
}

// distinctPoints says no two cells share a context and concurrency.
func distinctPoints(cells []run.DecodeCell) bool {
	if len(cells) > 128 {
		seen := make(map[[2]int]bool, len(cells))
		for i := range cells {
			p := [2]int{cells[i].Context, cells[i].Concurrency}
			if seen[p] {
				return false
			}
			seen[p] = true
		}
		return true
	}
	for i := range cells {
		for j := range i {
			if cells[i].Context == cells[j].Context && cells[i].Concurrency == cells[j].Concurrency {
				return false
			}
		}
	}
	return true
}

// extraOf is the value of t's extra column for fresh run r, whose
// submitter slug is submitter (runIdentities): what the runs row holds.
func (t bestTable) extraOf(r *run.Run, submitter string) string {
	switch t.extra {
	case "engine_version":
		return r.Engine.Version
	case "submitter_slug":
		return submitter
	}
	return ""
}

// bestMaps is best cells kept in memory, per table of bestTables (in its
// order), by group and then by point: a batch's or a load's (FreshIndex),
// or an upload's to offer (offerCells). A load keeps some two million,
// offered some 600 times a run; keyed by the whole bestKey, each offer
// hashed its seven strings, a fifth of the load's CPU.
type bestMaps []map[bestGroup]map[bestPoint]bestRow

func newBestMaps() bestMaps {
	b := make(bestMaps, len(bestTables))
	for i := range b {
		b[i] = map[bestGroup]map[bestPoint]bestRow{}
	}
	return b
}

// RebuildBrowse derives best_cells and browse_groups again from every
// stored run, as the backfill does: for a bulk load that resumes one
// interrupted before its Finish, whose runs were never offered. It sorts
// every rankable cell, minutes at a million runs.
func (s *Bests) RebuildBrowse(ctx context.Context) (err error) {
	defer db.Wrap(&err, "RebuildBrowse")
	err = s.db.TransactChange(ctx, func(tx pgx.Tx) (db.Change, error) {
		if err := LockBest(ctx, tx); err != nil {
			return db.Change{}, err
		}
		return db.Change{Reset: true}, RebuildAll(ctx, tx)
	})
	if err != nil {
		return err
	}
	return s.Analyze(ctx)
}

// Analyze refreshes the planner's statistics of the tables a bulk load
// grows. Without them (autovacuum off, or not yet run) the planner keeps
// the sizes of the empty tables and picks poor indexes: offer_best_cells.sql
// went from 0.56 s to 2.2 s per batch at 27k runs.
func (s *Bests) Analyze(ctx context.Context) (err error) {
	defer db.Wrap(&err, "Analyze")
	_, err = s.db.Pool().Exec(ctx, `ANALYZE runs, decode_cells, prefill_rows, best_cells, version_best_cells, submitter_best_cells, browse_groups, identities, history_cells, history_versions, history_setups`)
	return err
}
