package report

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/status"
)

// StatusLabel words a status: "Requests queued", "Over capacity", ….
func StatusLabel(l *i18n.Localizer, s run.Status) string {
	return l.T("status."+string(s), nil)
}

// CellReason words why a decode cell has its status, in the reader's
// language, chosen by ReasonCode. Texts that come from the source (a
// failure message, a plan's skip reason) are shown as written; a code this
// version does not know falls back to the stored English reason.
func CellReason(l *i18n.Localizer, c *run.DecodeCell, s *run.Settings) string {
	switch c.ReasonCode {
	case run.ReasonKVBudget:
		sent := c.Context
		if c.MeasuredContext != 0 {
			sent = c.MeasuredContext
		}
		return l.T("reason.kv_budget", map[string]any{
			"Needed":      l.Int(status.KVNeeded(sent, c.Concurrency, s)),
			"Concurrency": l.Int(int64(c.Concurrency)),
			"Context":     l.Int(int64(sent)),
			"MaxOutput":   l.Int(int64(s.MaxOutputTokens)),
			"Budget":      l.Int(s.KVBudgetTokens),
		})
	case run.ReasonQueued:
		conc := l.Int(int64(c.Concurrency))
		if c.AvgActive != nil {
			return l.T("reason.queued_active", map[string]any{"Active": l.Dec(*c.AvgActive, 2), "Concurrency": conc})
		}
		return l.T("reason.queued", map[string]any{"Concurrency": conc})
	}
	return codeReason(l, c.ReasonCode, c.Reason)
}

// cellReasons words the reason of every non-valid decode cell once: the grid
// and the table both show it, and wording it costs a template execution.
func cellReasons(r *run.Run, l *i18n.Localizer) map[*run.DecodeCell]string {
	out := make(map[*run.DecodeCell]string)
	for i := range r.Decode {
		if c := &r.Decode[i]; c.Status != run.Valid {
			out[c] = CellReason(l, c, &r.Settings)
		}
	}
	return out
}

// PrefillReason words why a prefill row has its status.
func PrefillReason(l *i18n.Localizer, p *run.PrefillRow) string {
	return codeReason(l, p.ReasonCode, p.Reason)
}

// codeReason handles the reasons whose wording needs no numbers.
func codeReason(l *i18n.Localizer, code run.ReasonCode, reason string) string {
	switch code {
	case run.ReasonNoOutput, run.ReasonLoop, run.ReasonLegacyZero, run.ReasonAbsent, run.ReasonNoRate:
		return l.T("reason."+string(code), nil)
	}
	// ReasonSource, ReasonPlan: the source's own words. Anything else:
	// the English text status derived, better than nothing.
	return reason
}

// statusNotes explains each non-valid status the grid or prefill shows, in
// a fixed order, so a reader never meets a label the page does not define.
func statusNotes(r *run.Run, l *i18n.Localizer) []Note {
	seen := map[run.Status]bool{}
	for _, c := range r.Decode {
		seen[c.Status] = true
	}
	for _, p := range r.Prefill {
		seen[p.Status] = true
	}
	var notes []Note
	for _, s := range []run.Status{run.Queued, run.OverCapacity, run.Failed, run.NotMeasured} {
		if seen[s] {
			notes = append(notes, Note{Status: s, Label: StatusLabel(l, s), Text: l.T("status.meaning."+string(s), nil)})
		}
	}
	return notes
}
