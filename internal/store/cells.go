package store

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// decodeCellColumns are decode_cells' columns but run_id: the order in
// which decodeRow writes them and collectDecodeCells reads them, and how
// queueInsertCells sends them.
var decodeCellColumns = []cellColumn[run.DecodeCell]{
	{"context", "integer[]", field(func(c *run.DecodeCell) pgInt { return pgInt{&c.Context} })},
	{"concurrency", "integer[]", field(func(c *run.DecodeCell) pgInt { return pgInt{&c.Concurrency} })},
	{"measured_context", "integer[]", field(func(c *run.DecodeCell) pgInt { return pgInt{&c.MeasuredContext} })},
	{"status", "text[]", field(func(c *run.DecodeCell) pgText { return pgText{(*string)(&c.Status)} })},
	{"reason", "text[]", field(func(c *run.DecodeCell) pgText { return pgText{&c.Reason} })},
	{"reason_code", "text[]", field(func(c *run.DecodeCell) pgText { return pgText{(*string)(&c.ReasonCode)} })},
	{"total_tps", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.TotalTPS} })},
	{"per_request_tps", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.PerRequestTPS} })},
	{"ttft_ms", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.TTFTms} })},
	{"tbt_ms", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.TBTms} })},
	{"avg_active", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.AvgActive} })},
	{"completed", "bigint[]", field(func(c *run.DecodeCell) pgOptInt { return pgOptInt{c.Completed} })},
	{"output_tokens", "bigint[]", field(func(c *run.DecodeCell) pgOptInt { return pgOptInt{c.OutputTokens} })},
	{"measured_s", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.MeasuredS} })},
	{"measured", "boolean[]", field(func(c *run.DecodeCell) pgBool { return pgBool{&c.Measured} })},
	{"signal_failed", "boolean[]", field(func(c *run.DecodeCell) pgBool { return pgBool{&c.Signals.Failed} })},
	{"signal_failure_reason", "text[]", field(func(c *run.DecodeCell) pgText { return pgText{&c.Signals.FailureReason} })},
	{"signal_loop_detected", "boolean[]", field(func(c *run.DecodeCell) pgBool { return pgBool{&c.Signals.LoopDetected} })},
	{"signal_capacity_limited", "boolean[]", field(func(c *run.DecodeCell) pgBool { return pgBool{&c.Signals.CapacityLimited} })},
	{"signal_avg_queue", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.Signals.AvgQueue} })},
	{"signal_queue_fraction", "double precision[]", field(func(c *run.DecodeCell) pgOptFloat { return pgOptFloat{c.Signals.QueueFraction} })},
}

// decodeColumns are the columns of decode_cells, as COPY writes them.
var decodeColumns = cellColumnNames(decodeCellColumns)

// insertDecodeSQL inserts one run's decode cells (queueInsertCells,
// uploadWrites).
var insertDecodeSQL = newCellsInsertSQL("decode_cells", decodeCellColumns)

// decodeRow is c as a decode_cells row in decodeColumns' order, for COPY.
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
// scan into pgtype values; the rows wait in a pooled scratch list, so the
// cells, and the numbers they point to, are each one allocation of the
// right size (growing the list by append was 30 KB of garbage a miss).
func collectDecodeCells(rows pgx.Rows) ([]run.DecodeCell, error) {
	defer rows.Close()
	scratch := cellRowsPool.Get().(*[]cellRow)
	defer func() { clear(*scratch); *scratch = (*scratch)[:0]; cellRowsPool.Put(scratch) }()
	var (
		r       cellRow
		c, f, n = &r.cell, &r.f, &r.n
		dest    = []any{
			&c.Context, &c.Concurrency, &c.MeasuredContext, (*string)(&c.Status), &c.Reason, (*string)(&c.ReasonCode),
			&f[0], &f[1], &f[2], &f[3], &f[4], &n[0],
			&n[1], &f[5], &c.Measured,
			&c.Signals.Failed, &c.Signals.FailureReason, &c.Signals.LoopDetected,
			&c.Signals.CapacityLimited, &f[6], &f[7],
		}
	)
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
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

// prefillCellColumns are prefill_rows' columns but run_id, in the order
// of decodeCellColumns' comment.
var prefillCellColumns = []cellColumn[run.PrefillRow]{
	{"context", "integer[]", field(func(p *run.PrefillRow) pgInt { return pgInt{&p.Context} })},
	{"measured_context", "integer[]", field(func(p *run.PrefillRow) pgInt { return pgInt{&p.MeasuredContext} })},
	{"status", "text[]", field(func(p *run.PrefillRow) pgText { return pgText{(*string)(&p.Status)} })},
	{"reason", "text[]", field(func(p *run.PrefillRow) pgText { return pgText{&p.Reason} })},
	{"reason_code", "text[]", field(func(p *run.PrefillRow) pgText { return pgText{(*string)(&p.ReasonCode)} })},
	{"prompt_tps", "double precision[]", field(func(p *run.PrefillRow) pgOptFloat { return pgOptFloat{p.PromptTPS} })},
	{"ttft_ms", "double precision[]", field(func(p *run.PrefillRow) pgOptFloat { return pgOptFloat{p.TTFTms} })},
	{"completed", "bigint[]", field(func(p *run.PrefillRow) pgOptInt { return pgOptInt{p.Completed} })},
	{"measured", "boolean[]", field(func(p *run.PrefillRow) pgBool { return pgBool{&p.Measured} })},
}

// prefillColumns are the columns of prefill_rows, as COPY writes them.
var prefillColumns = cellColumnNames(prefillCellColumns)

// insertPrefillSQL inserts one run's prefill rows (queueInsertCells).
var insertPrefillSQL = newCellsInsertSQL("prefill_rows", prefillCellColumns)

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

// cellColumn is one column of a table of a run's cells, run_id aside:
// its name, its array type, and the whole column of rows as an array
// parameter.
type cellColumn[R any] struct {
	name, array string
	of          func(rows []R) any
}

// field is the column of rows that at reads from each, as a pgArray.
func field[R any, E pgElement](at func(*R) E) func([]R) any {
	return func(rows []R) any { return newPGArray(rows, at) }
}

func cellColumnNames[R any](columns []cellColumn[R]) []string {
	names := []string{"run_id"}
	for _, c := range columns {
		names = append(names, c.name)
	}
	return names
}

// cellsInsert is an upload's statement over arrays, one per column, of
// one run's rows, in two texts for the same rows, and cellsForm picks one
// by the number of rows: the offers to a table of bests
// (bestTable.offerOneSQL).
type cellsInsert struct {
	// unnest reads the arrays by unnest($2, $3, …): a function per array,
	// each of which PostgreSQL's function scan first copies whole into a
	// tuple store of its own.
	unnest string
	// indexed reads the first array by unnest WITH ORDINALITY and row i
	// of the others by subscript: one function, one tuple store. A
	// subscript of an array with NULLs or of text walks the array from its
	// start, so the cost grows with the square of its length: past
	// indexedRows the unnest is cheaper. The rows come from an unnest
	// rather than generate_series or generate_subscripts so that the
	// generic plan, which takes an array parameter for 10 elements, is
	// costed below the custom plans, which count them: the other way round
	// PostgreSQL planned the best-cell offer afresh at every upload
	// (TestUploadCellStatementsKeepTheirPlan).
	indexed string
}

// indexedRows is the most rows an offer reads by subscript (cellsForm); at 192
// cells the subscripts were still a quarter faster than the unnest.
const indexedRows = 256

// newCellsInsertSQL is the insert of one run's rows into a table of cells
// as one statement over arrays, one per column, the run's id once ($1):
// for a single run's few dozen cells it can go with other statements
// (uploadWrites), where a COPY costs a round trip of its own. The arrays
// are unnested in its select list, side by side: PostgreSQL steps through
// them together, one element of each per row, each array walked once.
// It was two texts, by subscript (up to 256 rows) and by unnest in FROM;
// this one took 14 % less time than the first for 48 cells and a quarter
// less than the second for 960 (docs/performance.md). The arrays of a run
// all have its number of rows. A set-returning function in the select list
// is costed, in the generic plan, for an array of 10 elements and, in a
// custom plan, for the array's own length, so the generic plan is kept
// (TestUploadCellStatementsKeepTheirPlan).
func newCellsInsertSQL[R any](table string, columns []cellColumn[R]) string {
	list := make([]string, len(columns))
	for j, c := range columns {
		list[j] = fmt.Sprintf("unnest($%d::%s)", j+2, c.array)
	}
	return `INSERT INTO ` + table + ` (` + strings.Join(cellColumnNames(columns), ", ") + `) SELECT $1::text, ` +
		strings.Join(list, ", ")
}

// cellsForm is which text of a cellsInsert offers rows rows: 1 indexed,
// 2 unnest (form).
func cellsForm(rows int) int {
	if rows <= indexedRows {
		return 1
	}
	return 2
}

// form is c's text of the form cellsForm numbers.
func (c cellsInsert) form(f int) string {
	return [...]string{"", c.indexed, c.unnest}[f]
}

// cellArgs are insertCellsSQL's parameters for rows of run runID.
func cellArgs[R any](runID string, columns []cellColumn[R], rows []R) []any {
	args := make([]any, 1+len(columns))
	args[0] = runID
	for j, c := range columns {
		args[j+1] = c.of(rows)
	}
	return args
}

// queueInsertCells queues on b the inserts of r's decode cells and
// prefill rows under runID, each column read in place from the cells.
func queueInsertCells(b *pgx.Batch, runID string, r *run.Run) {
	if len(r.Decode) > 0 {
		b.Queue(insertDecodeSQL, cellArgs(runID, decodeCellColumns, r.Decode)...)
	}
	if len(r.Prefill) > 0 {
		b.Queue(insertPrefillSQL, cellArgs(runID, prefillCellColumns, r.Prefill)...)
	}
}
