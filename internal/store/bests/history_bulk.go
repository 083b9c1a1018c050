package bests

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// historyPoint is the rest of history_cells' primary key (historyCellsKey)
// past a run's setup and version (a groupKey).
type historyPoint struct{ context, concurrency int32 }

// historyCellRow is the rest of a history_cells row; its bestRow orders
// offers as historyBetter does (sort value: minus the total tok/s).
type historyCellRow struct {
	bestRow
	demo bool
}

// bulkHistory is what fresh runs bring the history tables, kept in memory
// (FreshIndex): the best cells of the runs, by setup and version and then
// by point (a run's cells share the first, looked up once), and their
// counts (keyed as browse groups are: history_versions has their key).
type bulkHistory struct {
	cells    map[groupKey]map[historyPoint]historyCellRow
	versions map[groupKey]groupRow
}

// offer keeps a stored run's history cells where they beat the best so far
// and counts it, when it is one a history reads (freshHistoryRankable).
func (h *bulkHistory) offer(id string, r *run.Run, uploaded time.Time) {
	if !freshHistoryRankable(r) {
		return
	}
	if h.cells == nil {
		h.cells, h.versions = map[groupKey]map[historyPoint]historyCellRow{}, map[groupKey]groupRow{}
	}
	ids := runIdentities(r)
	hw, engine, model, base, quant := ids[0].Slug, ids[1].Slug, ids[2].Slug, ids[3].Slug, ids[5].Slug
	vk := groupKey{model, hw, engine, r.Engine.Version, quant}
	h.versions[vk] = groupRow{base: base, runs: h.versions[vk].runs + 1}
	points := h.cells[vk]
	for i := range r.Decode {
		c := &r.Decode[i]
		if !historyCell(c) {
			continue
		}
		if points == nil {
			points = map[historyPoint]historyCellRow{}
			h.cells[vk] = points
		}
		p := historyPoint{int32(c.Context), int32(c.Concurrency)}
		row := historyCellRow{bestRow{base: base, sortValue: -*c.TotalTPS, value: *c.TotalTPS, runID: id, uploaded: uploaded}, r.Demo}
		if old, ok := points[p]; !ok || row.better(old.bestRow) {
			points[p] = row
		}
	}
}

// historyCellAt is one kept history cell with its key, as list gives them.
type historyCellAt struct {
	k groupKey
	p historyPoint
	v historyCellRow
}

// list is the kept cells, in no order.
func (h *bulkHistory) list() []historyCellAt {
	n := 0
	for _, points := range h.cells {
		n += len(points)
	}
	out := make([]historyCellAt, 0, n)
	for k, points := range h.cells {
		for p, v := range points {
			out = append(out, historyCellAt{k, p, v})
		}
	}
	return out
}

// args are offerHistorySQL's parameters for the kept cells.
func (h *bulkHistory) args() []any {
	cells := h.list()
	n := len(cells)
	hardware, engines, models := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	contexts, concurrencies := make([]int, 0, n), make([]int, 0, n)
	quants, versions, bases := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	tps, uploaded, runIDs, demos := make([]float64, 0, n), make([]time.Time, 0, n), make([]string, 0, n), make([]bool, 0, n)
	for _, c := range cells {
		k, v := c.k, c.v
		hardware, engines, models = append(hardware, k.hardware), append(engines, k.engine), append(models, k.model)
		contexts, concurrencies = append(contexts, int(c.p.context)), append(concurrencies, int(c.p.concurrency))
		quants, versions, bases = append(quants, k.quantization), append(versions, k.version), append(bases, v.base)
		tps, uploaded, runIDs, demos = append(tps, v.value), append(uploaded, v.uploaded), append(runIDs, v.runID), append(demos, v.demo)
	}
	return []any{hardware, engines, models, contexts, concurrencies, quants, versions, bases, tps, uploaded, runIDs, demos}
}

// historyCopyColumns are history_cells' columns as copy writes them.
var historyCopyColumns = []string{"hardware_slug", "engine_slug", "model_slug", "context", "concurrency",
	"quantization_slug", "engine_version", "model_base_slug", "total_tps", "uploaded_at", "run_id", "demo"}

// copy writes the kept cells into history_cells, which holds none yet,
// in the order of its primary key (FreshIndex.Write).
func (h *bulkHistory) copy(ctx context.Context, tx pgx.Tx) error {
	cells := h.list()
	slices.SortFunc(cells, func(a, b historyCellAt) int {
		return cmp.Or(strings.Compare(a.k.hardware, b.k.hardware), strings.Compare(a.k.engine, b.k.engine),
			strings.Compare(a.k.model, b.k.model), cmp.Compare(a.p.context, b.p.context),
			cmp.Compare(a.p.concurrency, b.p.concurrency), strings.Compare(a.k.quantization, b.k.quantization),
			strings.Compare(a.k.version, b.k.version))
	})
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"history_cells"}, historyCopyColumns, pgx.CopyFromSlice(len(cells), func(i int) ([]any, error) {
		k, p, v := &cells[i].k, cells[i].p, &cells[i].v
		return []any{k.hardware, k.engine, k.model, int(p.context), int(p.concurrency), k.quantization, k.version,
			v.base, v.value, v.uploaded, v.runID, v.demo}, nil
	}))
	return err
}
