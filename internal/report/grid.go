package report

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// ShowsNumbers reports whether a status's throughput and latency mean
// something: a queued cell still measured real output, just with fewer
// streams at once than asked.
func ShowsNumbers(s run.Status) bool { return s == run.Valid || s == run.Queued }

// sentLabel names the trimmed context a cell or row actually sent, when it
// differs from the requested one.
func sentLabel(l *i18n.Localizer, requested, measured int) string {
	if measured == 0 || measured == requested {
		return ""
	}
	return l.T("run.prefill.sent", map[string]any{"Context": ContextLabel(measured)})
}

func prefillRows(r *run.Run, l *i18n.Localizer) []PrefillRow {
	out := make([]PrefillRow, 0, len(r.Prefill))
	for i := range r.Prefill {
		p := &r.Prefill[i]
		row := PrefillRow{
			ContextTokens: p.Context,
			Label:         l.T("run.prefill.context", map[string]any{"Context": ContextLabel(p.Context)}),
			Sent:          sentLabel(l, p.Context, p.MeasuredContext),
			Status:        p.Status,
		}
		if p.Status == run.Valid {
			row.TPS = FormatTPSCompact(l, p.PromptTPS)
			row.TTFT = l.T("run.grid.ttft", map[string]any{"V": FormatTTFT(l, p.TTFTms)})
		} else {
			row.StatusLabel = StatusLabel(l, p.Status)
			row.Reason = PrefillReason(l, p)
		}
		out = append(out, row)
	}
	return out
}

// grid lays the decode cells out as rows of contexts and columns of
// concurrencies. A cell missing from the run (status derivation always
// fills the grid, so only a hand-built run lacks one) is left blank.
func grid(r *run.Run, l *i18n.Localizer, reasons map[*run.DecodeCell]string, effs map[*run.DecodeCell]efficiency) Grid {
	ctxs, concs := Axes(r)
	// Every slice is sized once: the grid is rebuilt on every page miss.
	g := Grid{Max: maxValidTPS(r), Columns: make([]Column, 0, len(concs)), Rows: make([]GridRow, 0, len(ctxs))}
	for _, c := range concs {
		label := l.Int(int64(c))
		g.Columns = append(g.Columns, Column{Concurrency: c, Label: label,
			Spoken: l.T("run.grid.column_spoken", map[string]any{"N": label})})
	}
	type key struct{ ctx, conc int }
	byKey := make(map[key]*run.DecodeCell, len(r.Decode))
	for i := range r.Decode {
		byKey[key{r.Decode[i].Context, r.Decode[i].Concurrency}] = &r.Decode[i]
	}
	for _, ctx := range ctxs {
		row := GridRow{ContextTokens: ctx, Label: ContextLabel(ctx),
			Spoken: l.T("run.prefill.context", map[string]any{"Context": ContextLabel(ctx)}),
			Cells:  make([]Cell, 0, len(concs))}
		for _, conc := range concs {
			c, ok := byKey[key{ctx, conc}]
			if !ok {
				row.Cells = append(row.Cells, Cell{Context: ctx, Concurrency: conc})
				continue
			}
			if row.Sent == "" {
				row.Sent = sentLabel(l, ctx, c.MeasuredContext)
			}
			cell := gridCell(l, c, g.Max, reasons[c])
			cell.Efficiency = effs[c].grid
			row.Cells = append(row.Cells, cell)
		}
		g.Rows = append(g.Rows, row)
	}
	return g
}

func gridCell(l *i18n.Localizer, c *run.DecodeCell, max float64, reason string) Cell {
	cell := Cell{Context: c.Context, Concurrency: c.Concurrency, Status: c.Status}
	if c.Status != run.Valid {
		cell.StatusLabel = StatusLabel(l, c.Status)
		cell.Reason = reason
	}
	if ShowsNumbers(c.Status) {
		cell.TPS = FormatTPSCompact(l, c.TotalTPS)
		if c.TTFTms != nil {
			cell.TTFT = l.T("run.grid.ttft", map[string]any{"V": FormatTTFT(l, c.TTFTms)})
		}
	}
	if c.Throttled() {
		cell.Throttle = ThrottleLabel(l, *c.Throttle)
	}
	if c.Status == run.Valid && c.TotalTPS != nil {
		cell.BG, cell.FG = Colour(*c.TotalTPS, max)
		cell.Heat = HeatClass(ColourStep(*c.TotalTPS, max))
	}
	return cell
}

// maxValidTPS is the top of the colour scale: the best valid cell. Queued
// cells are left out because they are not coloured.
func maxValidTPS(r *run.Run) float64 {
	var m float64
	for _, c := range r.Decode {
		if c.Status == run.Valid && c.TotalTPS != nil && *c.TotalTPS > m {
			m = *c.TotalTPS
		}
	}
	return m
}
