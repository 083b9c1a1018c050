package bests

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// historyCellKey is history_cells' primary key (historyCellsKey).
type historyCellKey struct {
	hardware, engine, model string
	context, concurrency    int
	quantization, version   string
}

// historyCellRow is the rest of a history_cells row; its bestRow orders
// offers as historyBetter does (sort value: minus the total tok/s).
type historyCellRow struct {
	bestRow
	demo bool
}

// bulkHistory is what fresh runs bring the history tables, kept in memory
// (FreshIndex): the best cells of the runs and their counts (keyed as
// browse groups are: history_versions has their key).
type bulkHistory struct {
	cells    map[historyCellKey]historyCellRow
	versions map[groupKey]groupRow
}

// offer keeps a stored run's history cells where they beat the best so far
// and counts it, when it is one a history reads (freshHistoryRankable).
func (h *bulkHistory) offer(id string, r *run.Run, uploaded time.Time) {
	if !freshHistoryRankable(r) {
		return
	}
	if h.cells == nil {
		h.cells, h.versions = map[historyCellKey]historyCellRow{}, map[groupKey]groupRow{}
	}
	ids := runIdentities(r)
	hw, engine, model, base, quant := ids[0].Slug, ids[1].Slug, ids[2].Slug, ids[3].Slug, ids[5].Slug
	vk := groupKey{model, hw, engine, r.Engine.Version, quant}
	h.versions[vk] = groupRow{base: base, runs: h.versions[vk].runs + 1}
	for i := range r.Decode {
		c := &r.Decode[i]
		if !historyCell(c) {
			continue
		}
		k := historyCellKey{hw, engine, model, c.Context, c.Concurrency, quant, r.Engine.Version}
		row := historyCellRow{bestRow{base: base, sortValue: -*c.TotalTPS, value: *c.TotalTPS, runID: id, uploaded: uploaded}, r.Demo}
		if old, ok := h.cells[k]; !ok || row.better(old.bestRow) {
			h.cells[k] = row
		}
	}
}

// args are offerHistorySQL's parameters for the kept cells.
func (h *bulkHistory) args() []any {
	n := len(h.cells)
	hardware, engines, models := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	contexts, concurrencies := make([]int, 0, n), make([]int, 0, n)
	quants, versions, bases := make([]string, 0, n), make([]string, 0, n), make([]string, 0, n)
	tps, uploaded, runIDs, demos := make([]float64, 0, n), make([]time.Time, 0, n), make([]string, 0, n), make([]bool, 0, n)
	for k, v := range h.cells {
		hardware, engines, models = append(hardware, k.hardware), append(engines, k.engine), append(models, k.model)
		contexts, concurrencies = append(contexts, k.context), append(concurrencies, k.concurrency)
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
	keys := slices.SortedFunc(maps.Keys(h.cells), func(a, b historyCellKey) int {
		return cmp.Or(strings.Compare(a.hardware, b.hardware), strings.Compare(a.engine, b.engine),
			strings.Compare(a.model, b.model), cmp.Compare(a.context, b.context), cmp.Compare(a.concurrency, b.concurrency),
			strings.Compare(a.quantization, b.quantization), strings.Compare(a.version, b.version))
	})
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"history_cells"}, historyCopyColumns, pgx.CopyFromSlice(len(keys), func(i int) ([]any, error) {
		k := keys[i]
		v := h.cells[k]
		return []any{k.hardware, k.engine, k.model, k.context, k.concurrency, k.quantization, k.version,
			v.base, v.value, v.uploaded, v.runID, v.demo}, nil
	}))
	return err
}
