// Package status decides the status of every decode cell and prefill row of a
// run: rules v2, first match wins (each rule is written out below). It is the only
// place a status is decided; the page, the API and the exports read what it
// returns.
package status

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// RulesVersion names the rules implemented here. Stored runs carry it; when
// it changes, every stored run is derived again from its source document.
const RulesVersion = "v2"

// queuedActiveRatio is the share of requested streams that must be running on
// average for a cell to count as fully concurrent (rule 3).
const queuedActiveRatio = 0.95

// Derive returns the derived prefill rows and decode cells of a parsed
// document: one decode cell per cell of the declared grid (widened to hold
// every measured cell), ordered by context then concurrency, and one prefill
// row per declared or measured prefill context.
func Derive(p *run.Parsed) ([]run.PrefillRow, []run.DecodeCell) {
	return derivePrefill(p), deriveDecode(p)
}

// Grid returns the contexts and concurrencies of the derived grid: the
// declared axes widened by every measured cell, sorted.
func Grid(p *run.Parsed) (contexts, concurrencies []int) {
	contexts = slices.Clone(p.Settings.Contexts)
	concurrencies = slices.Clone(p.Settings.Concurrencies)
	for _, m := range p.Decode {
		contexts = append(contexts, m.Context)
		concurrencies = append(concurrencies, m.Concurrency)
	}
	for _, e := range p.Plan {
		if !e.Prefill {
			contexts = append(contexts, e.Context)
			concurrencies = append(concurrencies, e.Concurrency)
		}
	}
	slices.Sort(contexts)
	slices.Sort(concurrencies)
	return slices.Compact(contexts), slices.Compact(concurrencies)
}

type cellKey struct{ ctx, conc int }

func deriveDecode(p *run.Parsed) []run.DecodeCell {
	measured := make(map[cellKey]*run.Measurement, len(p.Decode))
	for i := range p.Decode {
		m := &p.Decode[i]
		measured[cellKey{m.Context, m.Concurrency}] = m
	}
	plan := make(map[cellKey]*run.PlanEntry)
	for i := range p.Plan {
		if e := &p.Plan[i]; !e.Prefill {
			plan[cellKey{e.Context, e.Concurrency}] = e
		}
	}
	contexts, concurrencies := Grid(p)
	cells := make([]run.DecodeCell, 0, len(contexts)*len(concurrencies))
	for _, ctx := range contexts {
		for _, conc := range concurrencies {
			k := cellKey{ctx, conc}
			if m, ok := measured[k]; ok {
				cells = append(cells, decideMeasured(m))
			} else {
				cells = append(cells, decideAbsent(ctx, conc, plan[k], &p.Settings))
			}
		}
	}
	return cells
}

// decideMeasured applies rules 1–4 to a cell the source holds.
func decideMeasured(m *run.Measurement) run.DecodeCell {
	c := run.DecodeCell{
		Context:         m.Context,
		MeasuredContext: m.MeasuredContext,
		Concurrency:     m.Concurrency,
		Metrics:         m.Metrics,
		Signals:         m.Signals,
		Measured:        true,
		Telemetry:       m.Telemetry,
	}
	switch {
	case m.Failed || m.FailureReason != "" || m.LoopDetected:
		c.Status = run.Failed
		c.Reason, c.ReasonCode = failureReason(m)
	case producedNoOutput(m):
		c.Status = run.OverCapacity
		c.ReasonCode = run.ReasonNoOutput
		c.Reason = "ran but produced no output tokens in the measured window"
	case isQueued(m):
		c.Status = run.Queued
		c.ReasonCode = run.ReasonQueued
		c.Reason = queuedReason(m)
	default:
		c.Status = run.Valid
	}
	return c
}

func failureReason(m *run.Measurement) (string, run.ReasonCode) {
	switch {
	case m.FailureReason != "":
		return m.FailureReason, run.ReasonSource
	case m.LoopDetected:
		return "the tool detected a repetition loop in the output", run.ReasonLoop
	default:
		return "all-zero record: the tool's failure marker up to 0.4.18", run.ReasonLegacyZero
	}
}

// producedNoOutput reports a cell that ran but emitted nothing in its window.
// Without an output-token count, a zero total throughput says the same.
func producedNoOutput(m *run.Measurement) bool {
	if m.OutputTokens != nil {
		return *m.OutputTokens == 0
	}
	return m.TotalTPS != nil && *m.TotalTPS == 0
}

// isQueued is rule 3: the source says requests waited (its own verdict, a
// queue length or share), or fewer requests ran at once than the cap. "Ran
// at once" is the peak in flight when the tool recorded one: the mean in
// flight of a capped run sits below the cap by the ramp-up and the last
// requests draining alone, however fast the server, so it is the measure
// only when no peak is known (GuideLLM, early SGLang files).
func isQueued(m *run.Measurement) bool {
	if m.CapacityLimited {
		return true
	}
	if m.AvgQueue != nil && *m.AvgQueue > 0 {
		return true
	}
	if m.QueueFraction != nil && *m.QueueFraction > 0 {
		return true
	}
	if m.PeakActive != nil {
		return *m.PeakActive < int64(m.Concurrency)
	}
	return m.AvgActive != nil && *m.AvgActive < queuedActiveRatio*float64(m.Concurrency)
}

func queuedReason(m *run.Measurement) string {
	if m.PeakActive != nil {
		return fmt.Sprintf("at most %d of %d requests ran at once", *m.PeakActive, m.Concurrency)
	}
	if m.AvgActive != nil {
		return fmt.Sprintf("%.2f of %d requests ran at once on average", *m.AvgActive, m.Concurrency)
	}
	return fmt.Sprintf("not all %d requests ran at once", m.Concurrency)
}

// decideAbsent applies rules 2 and 5 to a grid cell the source does not hold.
func decideAbsent(ctx, conc int, e *run.PlanEntry, s *run.Settings) run.DecodeCell {
	c := run.DecodeCell{Context: ctx, Concurrency: conc}
	sent := ctx
	if e != nil && e.MeasuredContext != 0 {
		c.MeasuredContext = e.MeasuredContext
		sent = e.MeasuredContext
	}
	switch {
	case e != nil && e.OverCapacity:
		c.Status, c.ReasonCode, c.Reason = run.OverCapacity, run.ReasonPlan, e.Reason
	case e != nil && e.Skipped:
		// The plan's own reason (max-num-seqs, max_model_len) outranks
		// what the KV rule would infer: it is why the cell did not run.
		c.Status, c.ReasonCode, c.Reason = run.NotMeasured, run.ReasonPlan, e.Reason
	case ExceedsKV(sent, conc, s):
		c.Status, c.ReasonCode = run.OverCapacity, run.ReasonKVBudget
		c.Reason = kvReason(sent, conc, s)
	default:
		c.Status, c.ReasonCode = run.NotMeasured, run.ReasonAbsent
		c.Reason = "in the declared grid but not in the results"
	}
	return c
}

// KVNeeded is the KV-cache tokens a cell needs under the tool's rule:
// concurrency × (context + max output tokens).
func KVNeeded(ctx, conc int, s *run.Settings) int64 {
	return int64(conc) * (int64(ctx) + int64(s.MaxOutputTokens))
}

// ExceedsKV is llm-inference-bench's own skip rule (_should_skip): with a
// known budget, a cell is skipped when it needs more KV tokens than the
// budget, except context 0 at a concurrency the server runs at once.
func ExceedsKV(ctx, conc int, s *run.Settings) bool {
	if s.KVBudgetTokens <= 0 {
		return false
	}
	if ctx == 0 && s.MaxRunningRequests > 0 && conc <= s.MaxRunningRequests {
		return false
	}
	return KVNeeded(ctx, conc, s) > s.KVBudgetTokens
}

func derivePrefill(p *run.Parsed) []run.PrefillRow {
	byCtx := make(map[int]run.PrefillRow)
	for _, ctx := range p.Settings.PrefillContexts {
		byCtx[ctx] = run.PrefillRow{Context: ctx, Status: run.NotMeasured,
			ReasonCode: run.ReasonAbsent, Reason: "declared but not in the results"}
	}
	for _, e := range p.Plan {
		if !e.Prefill {
			continue
		}
		r := byCtx[e.Context]
		r.Context, r.MeasuredContext, r.Status = e.Context, e.MeasuredContext, run.NotMeasured
		if e.Skipped {
			r.ReasonCode, r.Reason = run.ReasonPlan, e.Reason
		} else if r.ReasonCode == "" {
			r.ReasonCode, r.Reason = run.ReasonAbsent, "declared but not in the results"
		}
		byCtx[e.Context] = r
	}
	for _, m := range p.Prefill {
		r := run.PrefillRow{Context: m.Context, MeasuredContext: m.MeasuredContext,
			PromptTPS: m.PromptTPS, TTFTms: m.TTFTms, Completed: m.Completed, Measured: true,
			Telemetry: m.Telemetry}
		switch {
		case m.FailureReason != "":
			r.Status, r.ReasonCode, r.Reason = run.Failed, run.ReasonSource, m.FailureReason
		case m.PromptTPS == nil || *m.PromptTPS <= 0:
			r.Status, r.ReasonCode, r.Reason = run.Failed, run.ReasonNoRate, "no prompt rate recorded"
		default:
			r.Status = run.Valid
		}
		byCtx[m.Context] = r
	}
	rows := make([]run.PrefillRow, 0, len(byCtx))
	for _, r := range byCtx {
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b run.PrefillRow) int { return a.Context - b.Context })
	return rows
}

// group writes n with thousands separators, as the tools do in their own
// messages ("needs 523,776 KV tokens").
// One allocation: a cell's reason groups four numbers, and concatenating
// a comma at a time cost a string per comma.
func group(n int64) string {
	var buf [27]byte
	return string(appendGroup(buf[:0], n))
}

// appendGroup appends n to b as group writes it.
func appendGroup(b []byte, n int64) []byte {
	var digitBuf [20]byte
	digits := strconv.AppendInt(digitBuf[:0], n, 10)
	for i, d := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, d)
	}
	return b
}

// kvReason is the reason of a cell over the KV budget, sent tokens at
// concurrency conc: "needs 2,564,096 KV tokens (8 × (312,320 + 8,192)), the
// server has 286,720". Built in one buffer: fmt.Sprintf of four grouped
// numbers cost a dozen allocations per such cell, and a seed-sized grid
// has dozens of them.
func kvReason(sent, conc int, s *run.Settings) string {
	b := make([]byte, 0, 96)
	b = append(b, "needs "...)
	b = appendGroup(b, KVNeeded(sent, conc, s))
	b = append(b, " KV tokens ("...)
	b = strconv.AppendInt(b, int64(conc), 10)
	b = append(b, " × ("...)
	b = appendGroup(b, int64(sent))
	b = append(b, " + "...)
	b = appendGroup(b, int64(s.MaxOutputTokens))
	b = append(b, ")), the server has "...)
	b = appendGroup(b, s.KVBudgetTokens)
	return string(b)
}
