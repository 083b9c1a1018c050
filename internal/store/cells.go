package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// decodeColumns are the columns of decode_cells, in the order decodeRow
// writes them and collectDecodeCells reads them.
var decodeColumns = []string{
	"run_id", "context", "concurrency", "measured_context", "status", "reason", "reason_code",
	"total_tps", "per_request_tps", "ttft_ms", "tbt_ms", "avg_active", "completed",
	"output_tokens", "measured_s", "measured",
	"signal_failed", "signal_failure_reason", "signal_loop_detected",
	"signal_capacity_limited", "signal_avg_queue", "signal_queue_fraction",
}

func decodeRow(runID string, c *run.DecodeCell) []any {
	return []any{
		runID, c.Context, c.Concurrency, c.MeasuredContext, string(c.Status), c.Reason, string(c.ReasonCode),
		c.TotalTPS, c.PerRequestTPS, c.TTFTms, c.TBTms, c.AvgActive, c.Completed,
		c.OutputTokens, c.MeasuredS, c.Measured,
		c.Signals.Failed, c.Signals.FailureReason, c.Signals.LoopDetected,
		c.Signals.CapacityLimited, c.Signals.AvgQueue, c.Signals.QueueFraction,
	}
}

// selectDecodeSQL reads the columns of decodeColumns but run_id.
const selectDecodeSQL = `
SELECT context, concurrency, measured_context, status, reason, reason_code,
    total_tps, per_request_tps, ttft_ms, tbt_ms, avg_active, completed,
    output_tokens, measured_s, measured,
    signal_failed, signal_failure_reason, signal_loop_detected,
    signal_capacity_limited, signal_avg_queue, signal_queue_fraction
FROM decode_cells
WHERE run_id = $1
ORDER BY context, concurrency`

// collectDecodeCells reads decode_cells rows (selectDecodeSQL) into cells.
// The destinations are made once and reused for every row: a report miss
// reads dozens of cells, and row.Scan with a fresh argument list per row
// built that list, a boxed pointer per column and, for each of the ten
// nullable numbers, a value behind reflection. Here the nullable numbers
// scan into pgtype values and each cell's land in one block.
func collectDecodeCells(rows pgx.Rows) ([]run.DecodeCell, error) {
	defer rows.Close()
	var (
		c    run.DecodeCell
		f    [8]pgtype.Float8 // total, per request, TTFT, TBT, avg active, measured s, avg queue, queue fraction
		n    [2]pgtype.Int8   // completed, output tokens
		dest = []any{
			&c.Context, &c.Concurrency, &c.MeasuredContext, (*string)(&c.Status), &c.Reason, (*string)(&c.ReasonCode),
			&f[0], &f[1], &f[2], &f[3], &f[4], &n[0],
			&n[1], &f[5], &c.Measured,
			&c.Signals.Failed, &c.Signals.FailureReason, &c.Signals.LoopDetected,
			&c.Signals.CapacityLimited, &f[6], &f[7],
		}
		out []run.DecodeCell
	)
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		block := new(struct {
			f [8]float64
			n [2]int64
		})
		float := func(i int) *float64 {
			if !f[i].Valid {
				return nil
			}
			block.f[i] = f[i].Float64
			return &block.f[i]
		}
		integer := func(i int) *int64 {
			if !n[i].Valid {
				return nil
			}
			block.n[i] = n[i].Int64
			return &block.n[i]
		}
		cell := c
		cell.Metrics = run.Metrics{TotalTPS: float(0), PerRequestTPS: float(1), TTFTms: float(2),
			TBTms: float(3), AvgActive: float(4), Completed: integer(0), OutputTokens: integer(1), MeasuredS: float(5)}
		cell.Signals.AvgQueue, cell.Signals.QueueFraction = float(6), float(7)
		out = append(out, cell)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// copyDecodeCells writes the cells with COPY: a run has dozens of them, and
// one COPY costs one round trip where INSERTs cost one each.
func copyDecodeCells(ctx context.Context, tx pgx.Tx, runID string, cells []run.DecodeCell) error {
	if len(cells) == 0 {
		return nil
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"decode_cells"}, decodeColumns,
		pgx.CopyFromSlice(len(cells), func(i int) ([]any, error) {
			return decodeRow(runID, &cells[i]), nil
		}))
	return err
}

var prefillColumns = []string{
	"run_id", "context", "measured_context", "status", "reason", "reason_code",
	"prompt_tps", "ttft_ms", "completed", "measured",
}

const selectPrefillSQL = `
SELECT context, measured_context, status, reason, reason_code,
    prompt_tps, ttft_ms, completed, measured
FROM prefill_rows
WHERE run_id = $1
ORDER BY context`

func scanPrefillRow(row pgx.CollectableRow) (run.PrefillRow, error) {
	var p run.PrefillRow
	err := row.Scan(&p.Context, &p.MeasuredContext, &p.Status, &p.Reason, &p.ReasonCode,
		&p.PromptTPS, &p.TTFTms, &p.Completed, &p.Measured)
	return p, err
}

func copyPrefillRows(ctx context.Context, tx pgx.Tx, runID string, rows []run.PrefillRow) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"prefill_rows"}, prefillColumns,
		pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			return prefillRow(runID, &rows[i]), nil
		}))
	return err
}

// prefillRow is p as a prefill_rows row in prefillColumns order.
func prefillRow(runID string, p *run.PrefillRow) []any {
	return []any{runID, p.Context, p.MeasuredContext, string(p.Status), p.Reason,
		string(p.ReasonCode), p.PromptTPS, p.TTFTms, p.Completed, p.Measured}
}

// queueInsertRows queues on b the insert of rows (each in columns' order)
// into table as one statement over arrays, one per column: for a single
// run's few dozen cells it can go in a batch with other statements, where
// a COPY costs a round trip of its own. Each column's array type follows
// from its Go type (what decodeRow and prefillRow write).
func queueInsertRows(b *pgx.Batch, table string, columns []string, rows [][]any) {
	if len(rows) == 0 {
		return
	}
	args := make([]any, len(columns))
	casts := make([]string, len(columns))
	for j := range columns {
		args[j], casts[j] = column(rows, j)
		casts[j] = fmt.Sprintf("$%d::%s", j+1, casts[j])
	}
	b.Queue(`INSERT INTO `+table+` (`+strings.Join(columns, ", ")+`) SELECT * FROM unnest(`+
		strings.Join(casts, ", ")+`)`, args...)
}

// column is column j of rows as a typed slice, and its PostgreSQL array type.
func column(rows [][]any, j int) (any, string) {
	switch rows[0][j].(type) {
	case string:
		return gather[string](rows, j), "text[]"
	case int:
		return gather[int](rows, j), "integer[]"
	case bool:
		return gather[bool](rows, j), "boolean[]"
	case *float64:
		return gather[*float64](rows, j), "double precision[]"
	case *int64:
		return gather[*int64](rows, j), "bigint[]"
	}
	panic(fmt.Sprintf("queueInsertRows: column %d is a %T", j, rows[0][j]))
}

func gather[T any](rows [][]any, j int) []T {
	out := make([]T, len(rows))
	for i, r := range rows {
		out[i] = r[j].(T)
	}
	return out
}

// cellRows are a run's decode cells and prefill rows as table rows.
func cellRows(runID string, r *run.Run) (decode, prefill [][]any) {
	decode = make([][]any, len(r.Decode))
	for i := range r.Decode {
		decode[i] = decodeRow(runID, &r.Decode[i])
	}
	prefill = make([][]any, len(r.Prefill))
	for i := range r.Prefill {
		prefill[i] = prefillRow(runID, &r.Prefill[i])
	}
	return decode, prefill
}
