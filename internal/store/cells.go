package store

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// decodeColumns are the columns of decode_cells: the order in which
// decodeRow and decodeCellArgs write them (as insert_decode_cells.sql
// lists them) and collectDecodeCells reads them (but run_id).
var decodeColumns = []string{"run_id", "context", "concurrency", "measured_context", "status", "reason",
	"reason_code", "total_tps", "per_request_tps", "ttft_ms", "tbt_ms", "avg_active", "completed",
	"output_tokens", "measured_s", "measured", "signal_failed", "signal_failure_reason",
	"signal_loop_detected", "signal_capacity_limited", "signal_avg_queue", "signal_queue_fraction", "telemetry"}

// insertDecodeCellsSQL inserts one run's decode cells (decodeCellArgs): an
// upload's, in its batch, where a COPY would cost a round trip of its own.
// Its arrays are unnested in its select list, side by side: PostgreSQL
// steps through them together, each walked once (14 % less time than
// reading them by subscript for 48 cells, a quarter less than an unnest in
// FROM for 960: docs/performance.md), and, costed for 10 elements in the
// generic plan and for their length in a custom one, it keeps the generic
// plan (TestUploadCellStatementsKeepTheirPlan).
var insertDecodeCellsSQL = sqlFile("insert_decode_cells")

// decodeCellArgs are insertDecodeCellsSQL's parameters for the cells of
// run id: the id, then each column of decodeColumns as an array, which pgx
// encodes from a slice (a nil pointer is NULL).
func decodeCellArgs(id string, cells []run.DecodeCell) []any {
	n := len(cells)
	var (
		contexts, concurrencies, measuredContexts = make([]int, n), make([]int, n), make([]int, n)
		statuses, reasons, codes, failures        = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		total, perRequest, ttft, tbt, avgActive   = make([]*float64, n), make([]*float64, n), make([]*float64, n), make([]*float64, n), make([]*float64, n)
		measuredS, avgQueue, queueFraction        = make([]*float64, n), make([]*float64, n), make([]*float64, n)
		completed, outputTokens                   = make([]*int64, n), make([]*int64, n)
		measured, failed, looped, limited         = make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)
		telemetry                                 = make([]*string, n)
	)
	for i := range cells {
		c := &cells[i]
		contexts[i], concurrencies[i], measuredContexts[i] = c.Context, c.Concurrency, c.MeasuredContext
		statuses[i], reasons[i], codes[i] = string(c.Status), c.Reason, string(c.ReasonCode)
		total[i], perRequest[i], ttft[i], tbt[i], avgActive[i] = c.TotalTPS, c.PerRequestTPS, c.TTFTms, c.TBTms, c.AvgActive
		completed[i], outputTokens[i], measuredS[i], measured[i] = c.Completed, c.OutputTokens, c.MeasuredS, c.Measured
		failed[i], failures[i], looped[i] = c.Signals.Failed, c.Signals.FailureReason, c.Signals.LoopDetected
		limited[i], avgQueue[i], queueFraction[i] = c.Signals.CapacityLimited, c.Signals.AvgQueue, c.Signals.QueueFraction
		telemetry[i] = telemetryText(&c.Telemetry)
	}
	return []any{id, contexts, concurrencies, measuredContexts, statuses, reasons, codes,
		total, perRequest, ttft, tbt, avgActive, completed, outputTokens, measuredS, measured,
		failed, failures, looped, limited, avgQueue, queueFraction, telemetry}
}

// decodeRow is c as a decode_cells row in decodeColumns' order, for COPY.
func decodeRow(runID string, c *run.DecodeCell) []any {
	return []any{
		runID, c.Context, c.Concurrency, c.MeasuredContext, string(c.Status), c.Reason, string(c.ReasonCode),
		c.TotalTPS, c.PerRequestTPS, c.TTFTms, c.TBTms, c.AvgActive, c.Completed,
		c.OutputTokens, c.MeasuredS, c.Measured,
		c.Signals.Failed, c.Signals.FailureReason, c.Signals.LoopDetected,
		c.Signals.CapacityLimited, c.Signals.AvgQueue, c.Signals.QueueFraction,
		telemetryJSON(&c.Telemetry),
	}
}

// selectDecodeSQL reads the columns of decodeColumns but run_id.
const selectDecodeSQL = `
SELECT context, concurrency, measured_context, status, reason, reason_code,
    total_tps, per_request_tps, ttft_ms, tbt_ms, avg_active, completed,
    output_tokens, measured_s, measured,
    signal_failed, signal_failure_reason, signal_loop_detected,
    signal_capacity_limited, signal_avg_queue, signal_queue_fraction, telemetry
FROM decode_cells
WHERE run_id = $1
ORDER BY context, concurrency`

// collectDecodeCells reads decode_cells rows (selectDecodeSQL) into cells.
// The destinations are made once and reused for every row: a report miss
// reads dozens of cells, and row.Scan with a fresh argument list per row
// built that list, a boxed pointer per column and, for each of the ten
// nullable numbers, a value behind reflection. Here the nullable numbers
// scan into pgtype values; the rows wait in a pooled scratch list, so the
// cells, and the numbers they point to, are each one allocation of the
// right size (growing the list by append was 30 KB of garbage a miss).
func collectDecodeCells(rows pgx.Rows) ([]run.DecodeCell, error) {
	defer rows.Close()
	scratch := cellRowsPool.Get().(*[]cellRow)
	defer func() { clear(*scratch); *scratch = (*scratch)[:0]; cellRowsPool.Put(scratch) }()
	var (
		r       cellRow
		raw     []byte
		c, f, n = &r.cell, &r.f, &r.n
		dest    = []any{
			&c.Context, &c.Concurrency, &c.MeasuredContext, (*string)(&c.Status), &c.Reason, (*string)(&c.ReasonCode),
			&f[0], &f[1], &f[2], &f[3], &f[4], &n[0],
			&n[1], &f[5], &c.Measured,
			&c.Signals.Failed, &c.Signals.FailureReason, &c.Signals.LoopDetected,
			&c.Signals.CapacityLimited, &f[6], &f[7], &raw,
		}
	)
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if err := readTelemetry(raw, &c.Telemetry); err != nil {
			return nil, err
		}
		*scratch = append(*scratch, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return cellsOf(*scratch), nil
}

// cellRow is one decode_cells row as scanned: the cell without its
// numbers, and the numbers, each maybe NULL.
type cellRow struct {
	cell run.DecodeCell
	f    [8]pgtype.Float8 // total, per request, TTFT, TBT, avg active, measured s, avg queue, queue fraction
	n    [2]pgtype.Int8   // completed, output tokens
}

var cellRowsPool = sync.Pool{New: func() any { s := make([]cellRow, 0, 64); return &s }}

// cellsOf makes the cells of scanned rows, their numbers in one block.
func cellsOf(rows []cellRow) []run.DecodeCell {
	if len(rows) == 0 {
		return nil // as a run without cells always read
	}
	out := make([]run.DecodeCell, len(rows))
	nums := make([]struct {
		f [8]float64
		n [2]int64
	}, len(rows))
	for i := range rows {
		r, num := &rows[i], &nums[i]
		float := func(j int) *float64 {
			if !r.f[j].Valid {
				return nil
			}
			num.f[j] = r.f[j].Float64
			return &num.f[j]
		}
		integer := func(j int) *int64 {
			if !r.n[j].Valid {
				return nil
			}
			num.n[j] = r.n[j].Int64
			return &num.n[j]
		}
		cell := r.cell
		cell.Metrics = run.Metrics{TotalTPS: float(0), PerRequestTPS: float(1), TTFTms: float(2),
			TBTms: float(3), AvgActive: float(4), Completed: integer(0), OutputTokens: integer(1), MeasuredS: float(5)}
		cell.Signals.AvgQueue, cell.Signals.QueueFraction = float(6), float(7)
		out[i] = cell
	}
	return out
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

// prefillColumns are the columns of prefill_rows, in the order of
// decodeColumns' comment.
var prefillColumns = []string{"run_id", "context", "measured_context", "status", "reason", "reason_code",
	"prompt_tps", "ttft_ms", "completed", "measured", "telemetry"}

// insertPrefillRowsSQL inserts one run's prefill rows (prefillRowArgs).
var insertPrefillRowsSQL = sqlFile("insert_prefill_rows")

// prefillRowArgs are insertPrefillRowsSQL's parameters for the rows of run
// id, as decodeCellArgs.
func prefillRowArgs(id string, rows []run.PrefillRow) []any {
	n := len(rows)
	var (
		contexts, measuredContexts = make([]int, n), make([]int, n)
		statuses, reasons, codes   = make([]string, n), make([]string, n), make([]string, n)
		promptTPS, ttft            = make([]*float64, n), make([]*float64, n)
		completed                  = make([]*int64, n)
		measured                   = make([]bool, n)
		telemetry                  = make([]*string, n)
	)
	for i := range rows {
		p := &rows[i]
		contexts[i], measuredContexts[i] = p.Context, p.MeasuredContext
		statuses[i], reasons[i], codes[i] = string(p.Status), p.Reason, string(p.ReasonCode)
		promptTPS[i], ttft[i], completed[i], measured[i] = p.PromptTPS, p.TTFTms, p.Completed, p.Measured
		telemetry[i] = telemetryText(&p.Telemetry)
	}
	return []any{id, contexts, measuredContexts, statuses, reasons, codes, promptTPS, ttft, completed, measured, telemetry}
}

const selectPrefillSQL = `
SELECT context, measured_context, status, reason, reason_code,
    prompt_tps, ttft_ms, completed, measured, telemetry
FROM prefill_rows
WHERE run_id = $1
ORDER BY context`

func scanPrefillRow(row pgx.CollectableRow) (run.PrefillRow, error) {
	var p run.PrefillRow
	var raw []byte
	err := row.Scan(&p.Context, &p.MeasuredContext, &p.Status, &p.Reason, &p.ReasonCode,
		&p.PromptTPS, &p.TTFTms, &p.Completed, &p.Measured, &raw)
	if err != nil {
		return p, err
	}
	return p, readTelemetry(raw, &p.Telemetry)
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
		string(p.ReasonCode), p.PromptTPS, p.TTFTms, p.Completed, p.Measured, telemetryJSON(&p.Telemetry)}
}

// queueInsertCells queues on b the inserts of r's decode cells and
// prefill rows under runID.
func queueInsertCells(b *pgx.Batch, runID string, r *run.Run) {
	if len(r.Decode) > 0 {
		b.Queue(insertDecodeCellsSQL, decodeCellArgs(runID, r.Decode)...)
	}
	if len(r.Prefill) > 0 {
		b.Queue(insertPrefillRowsSQL, prefillRowArgs(runID, r.Prefill)...)
	}
	queueInsertRunTelemetry(b, runID, r)
}
