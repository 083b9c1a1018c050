package report

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// rows is the All-measurements table: prefill rows first, then every decode
// cell in grid order, as on the seed page.
func rows(r *run.Run, l *i18n.Localizer, reasons map[*run.DecodeCell]string, effs map[*run.DecodeCell]efficiency) []Row {
	out := make([]Row, 0, len(r.Prefill)+len(r.Decode))
	for i := range r.Prefill {
		out = append(out, prefillTableRow(l, &r.Prefill[i]))
	}
	for i := range r.Decode {
		row := decodeTableRow(r, l, &r.Decode[i], reasons)
		row.Efficiency = effs[&r.Decode[i]].table
		out = append(out, row)
	}
	return out
}

// prefillTableRow: a prefill figure rests on one request at once; only the
// prompt rate, TTFT and the completed count apply.
func prefillTableRow(l *i18n.Localizer, p *run.PrefillRow) Row {
	row := Row{
		PhaseKey: "prefill", Phase: l.T("run.phase.prefill", nil),
		ContextTokens: p.Context, Context: ContextLabel(p.Context),
		Concurrency: 1, ConcurrencyLabel: l.Int(1),
		Status: p.Status, StatusLabel: StatusLabel(l, p.Status),
		TotalTPS: Dash, PerRequest: Dash, TTFT: Dash, TBT: Dash, AvgActive: Dash,
		Completed: FormatCount(l, p.Completed), OutputTokens: Dash, MeasuredFor: Dash, Efficiency: Dash,
	}
	if p.Status == run.Valid {
		row.TotalTPS = FormatTPS(l, p.PromptTPS)
		row.TTFT = FormatTTFT(l, p.TTFTms)
	} else {
		row.Reason = PrefillReason(l, p)
	}
	return row
}

// decodeTableRow: throughput and latency only when the status gives them a
// meaning; what the source counted (average active, output tokens, time)
// is shown whatever the status, as the seed shows its 248K×1 cell.
func decodeTableRow(r *run.Run, l *i18n.Localizer, c *run.DecodeCell, reasons map[*run.DecodeCell]string) Row {
	row := Row{
		PhaseKey: "decode", Phase: l.T("run.phase.decode", nil),
		ContextTokens: c.Context, Context: ContextLabel(c.Context),
		Concurrency: c.Concurrency, ConcurrencyLabel: l.Int(int64(c.Concurrency)),
		Status: c.Status, StatusLabel: StatusLabel(l, c.Status),
		TotalTPS: Dash, PerRequest: Dash, TTFT: Dash, TBT: Dash,
		AvgActive:    FormatAvgActive(l, c.AvgActive),
		OutputTokens: FormatCount(l, c.OutputTokens),
		MeasuredFor:  FormatSeconds(l, c.MeasuredS),
	}
	row.Reason = reasons[c]
	if ShowsNumbers(c.Status) {
		row.TotalTPS = FormatTPS(l, c.TotalTPS)
		row.PerRequest = FormatTPS(l, c.PerRequestTPS)
		row.TTFT = FormatTTFT(l, c.TTFTms)
		row.TBT = FormatTBT(l, c.TBTms)
	}
	row.Completed, row.CompletedNote = completed(r, l, c)
	return row
}

// completed decides the Completed-requests cell of a decode row. A cell the
// source does not hold shows a dash like its other numbers. In a
// fixed-duration run every stream is cut off when the window closes, so
// "completed" counts only the streams that happened to finish early and
// means nothing: the seed page leaves it empty, and so do we, saying why in
// a note. In a fixed-request-count run (or when the mode is unknown) the
// count is the test's own measure and is shown.
func completed(r *run.Run, l *i18n.Localizer, c *run.DecodeCell) (text, note string) {
	if !c.Measured {
		return Dash, ""
	}
	if r.Settings.DecodeMode == run.DecodeDuration {
		return "", l.T("reason.completed_duration", nil)
	}
	return FormatCount(l, c.Completed), ""
}
