package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/store"
)

// HistoryAnswers is every history read of the set's setups and cells,
// as the store answers it (new) and as the old full-read SQL does (old),
// one line per read.
func HistoryAnswers(t *testing.T, s *store.Store, conn *pgx.Conn, ids []string) (got, want []string) {
	t.Helper()
	ctx := context.Background()
	old := func(sql string, args ...any) []string {
		rows, _ := conn.Query(ctx, sql, args...)
		vals, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (string, error) {
			v, err := row.Values()
			return fmt.Sprint(v), err
		})
		if err != nil {
			t.Fatal(err)
		}
		return vals
	}
	add := func(read, g, w string) { got, want = append(got, read+": "+g), append(want, read+": "+w) }
	for _, model := range []string{"qwen-qwen3-8b", "qwen-qwen3-8b-fp8", "qwen3-8b"} {
		for _, hw := range []string{"rtx-4090-24gb", "rtx-3090-24gb"} {
			for _, quant := range []string{"", "fp8", "awq"} {
				q := store.HistoryQuery{Model: model, Hardware: hw, Engine: "vllm", Quantization: quant}
				opts, err := s.HistoryChoices(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				args := []any{q.Model, q.Hardware, q.Engine, q.Quantization}
				var cells []string
				for _, c := range opts.Cells {
					cells = append(cells, fmt.Sprint([]any{c.Context, c.Concurrency}))
				}
				add(fmt.Sprint("cells ", q), strings.Join(cells, " "), strings.Join(old(OldHistoryCellsSQL, args...), " "))
				add(fmt.Sprint("quantizations ", q), fmt.Sprint(opts.Quantizations),
					fmt.Sprint(MustStrings(t, conn, OldHistoryQuantizationsSQL, q.Model, q.Hardware, q.Engine, "")))
				for _, cell := range [][2]int{{0, 1}, {0, 4}, {8192, 1}, {8192, 4}} {
					q.Context, q.Concurrency = cell[0], cell[1]
					pts, err := s.History(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					var lines []string
					for _, p := range pts {
						lines = append(lines, fmt.Sprint([]any{p.EngineVersion, p.RunID, p.Value, p.Demo}))
					}
					slices.Sort(lines)
					was := old(OldHistorySQL, append(args, cell[0], cell[1])...)
					slices.Sort(was)
					add(fmt.Sprint("history ", q), strings.Join(lines, " "), strings.Join(was, " "))
				}
			}
		}
	}
	for _, id := range ids {
		q, _, versions, err := s.SetupVersions(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(versions)
		add("versions of "+id, fmt.Sprint(versions), fmt.Sprint(MustStrings(t, conn, OldSetupVersionsSQL+" ORDER BY 1",
			q.Model, q.Hardware, q.Engine, q.Quantization)))
	}
	for _, hw := range []string{"rtx-4090-24gb", "rtx-3090-24gb"} {
		setups, err := s.SetupsWithHistory(ctx, store.KindHardware, hw, 10)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, st := range setups {
			lines = append(lines, fmt.Sprint([]any{st.Model, st.Hardware, st.Engine, st.Quantization, int64(st.Versions)}))
		}
		add("setups of "+hw, strings.Join(lines, " "), strings.Join(old(OldSetupsWithHistorySQL, hw, 10), " "))
	}
	return got, want
}

// MustStrings is the one text column sql returns on conn, row by row.
func MustStrings(t *testing.T, conn *pgx.Conn, sql string, args ...any) []string {
	t.Helper()
	rows, _ := conn.Query(context.Background(), sql, args...)
	list, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// The reads of a setup's history as they were before migration 0016:
// from every rankable run of the setup. TestHistoryTablesMatchRuns holds
// the kept tables' answers to them.

// HistoryRankable is the rule of the runs a history reads, on runs r, as
// package bests spells it (TestOldHistoryReadsRankAsTheIndex holds them
// equal): the old reads rank the runs the kept tables rank.
const HistoryRankable = `r.engine_version <> '' AND NOT r.hidden AND NOT r.above_bound AND r.profile <> 'quick'`

const oldHistoryWhere = `(r.model_slug = $1 OR r.model_base_slug = $1) AND r.hardware_slug = $2
    AND r.engine_slug = $3 AND ($4 = '' OR r.quantization_slug = $4) AND ` + HistoryRankable

// OldHistorySQL is History's answer ($1–$6) from the runs.
const OldHistorySQL = `
SELECT DISTINCT ON (r.engine_version) r.engine_version, r.id, c.total_tps, r.demo
FROM runs r JOIN decode_cells c ON c.run_id = r.id
WHERE ` + oldHistoryWhere + `
    AND c.context = $5 AND c.concurrency = $6 AND c.status = 'valid' AND c.total_tps > 0
ORDER BY r.engine_version, c.total_tps DESC, r.uploaded_at, r.id`

// OldHistoryCellsSQL is HistoryChoices' cells ($1–$4) from the runs.
const OldHistoryCellsSQL = `
SELECT DISTINCT c.context, c.concurrency FROM runs r JOIN decode_cells c ON c.run_id = r.id
WHERE ` + oldHistoryWhere + ` AND c.status = 'valid' AND c.total_tps > 0
ORDER BY c.context, c.concurrency`

// OldHistoryQuantizationsSQL is HistoryChoices' quantizations ($1–$3, $4
// empty) from the runs.
const OldHistoryQuantizationsSQL = `
SELECT r.quantization_slug FROM runs r WHERE ` + oldHistoryWhere + `
GROUP BY r.quantization_slug ORDER BY count(*) DESC, r.quantization_slug`

// OldSetupVersionsSQL is SetupVersions' versions ($1–$4) from the runs.
const OldSetupVersionsSQL = `SELECT DISTINCT r.engine_version FROM runs r WHERE ` + oldHistoryWhere

// OldSetupsWithHistorySQL is SetupsWithHistory ($1 the hardware's slug,
// $2 the limit) from the runs.
const OldSetupsWithHistorySQL = `
SELECT r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug, count(DISTINCT r.engine_version)
FROM runs r WHERE r.hardware_slug = $1 AND ` + HistoryRankable + `
GROUP BY r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug
HAVING count(DISTINCT r.engine_version) > 1
ORDER BY count(DISTINCT r.engine_version) DESC, r.model_slug, r.hardware_slug, r.engine_slug, r.quantization_slug
LIMIT $2`
