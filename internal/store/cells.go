package store

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// decodeColumns are the columns of decode_cells, in the order decodeRow
// writes them and scanDecodeCell reads them.
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

func scanDecodeCell(row pgx.CollectableRow) (run.DecodeCell, error) {
	var c run.DecodeCell
	err := row.Scan(
		&c.Context, &c.Concurrency, &c.MeasuredContext, &c.Status, &c.Reason, &c.ReasonCode,
		&c.TotalTPS, &c.PerRequestTPS, &c.TTFTms, &c.TBTms, &c.AvgActive, &c.Completed,
		&c.OutputTokens, &c.MeasuredS, &c.Measured,
		&c.Signals.Failed, &c.Signals.FailureReason, &c.Signals.LoopDetected,
		&c.Signals.CapacityLimited, &c.Signals.AvgQueue, &c.Signals.QueueFraction,
	)
	return c, err
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
