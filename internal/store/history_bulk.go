package store

import (
	"context"
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

// bulkHistory is what a bulk load keeps in memory for the history tables
// between two Finish calls: the best cells of its runs and their counts
// (keyed as browse groups are: history_versions has their key).
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

// store offers the kept cells to the stored ones, as the upload path does
// (a better cell replaces the stored one), through a scratch table. In
// Bulk.Finish, after the browse groups, whose deltas carried the versions'
// counts (countGroups).
func (h *bulkHistory) store(ctx context.Context, tx pgx.Tx) error {
	if len(h.cells) == 0 {
		return nil
	}
	cells := make([][]any, 0, len(h.cells))
	for k, v := range h.cells {
		cells = append(cells, []any{k.hardware, k.engine, k.model, k.context, k.concurrency, k.quantization, k.version,
			v.base, v.value, v.uploaded, v.runID, v.demo})
	}
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE bulk_history_cells (LIKE history_cells) ON COMMIT DROP`); err != nil {
		return err
	}
	columns := splitColumns(strings.Trim(historyCellsColumns, "()"))
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"bulk_history_cells"}, columns, pgx.CopyFromRows(cells)); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO history_cells AS h `+historyCellsColumns+`
SELECT `+strings.Join(columns, ", ")+` FROM bulk_history_cells ORDER BY `+historyCellsKey+historyCellsUpsert)
	return err
}
