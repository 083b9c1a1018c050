package lilbench

import (
	"regexp"
	"slices"

	"github.com/speedmatrix/speedmatrix/internal/run"
)

// kvReason is how lil-bench words a KV skip: "needs 523,776 KV tokens, the
// server has 423,936".
var kvReason = regexp.MustCompile(`needs [0-9,]+ KV tokens`)

// applyPlan makes the plan's grid the declared grid (requested contexts,
// trimmed ones shown where they differ), moves measurements taken at a
// trimmed context onto their requested row, and records skipped cells with
// the plan's reason.
func applyPlan(p *run.Parsed, entries []plan) {
	if len(entries) == 0 {
		return
	}
	decodeRow := map[int]int{}  // trimmed context → requested context
	prefillRow := map[int]int{} // the same for prefill
	var contexts, concurrencies, prefill []int
	for _, e := range entries {
		if e.RequestedContext == nil {
			continue
		}
		req := int(*e.RequestedContext)
		trimmed := 0
		if e.Context != nil && int(*e.Context) != req {
			trimmed = int(*e.Context)
		}
		entry := run.PlanEntry{Context: req, MeasuredContext: trimmed, Skipped: e.Status == "skipped"}
		if e.Reason != nil && entry.Skipped {
			entry.Reason = *e.Reason
			entry.OverCapacity = kvReason.MatchString(*e.Reason)
		}
		if e.Kind == "prefill" {
			entry.Prefill = true
			prefill = append(prefill, req)
			if trimmed != 0 {
				prefillRow[trimmed] = req
			}
		} else {
			if e.Concurrency == nil {
				continue
			}
			entry.Concurrency = int(*e.Concurrency)
			contexts = append(contexts, req)
			concurrencies = append(concurrencies, entry.Concurrency)
			if trimmed != 0 && !entry.Skipped {
				decodeRow[trimmed] = req
			}
		}
		if entry.Skipped || trimmed != 0 {
			p.Plan = append(p.Plan, entry)
		}
	}
	for i := range p.Decode {
		m := &p.Decode[i]
		if req, ok := decodeRow[m.Context]; ok {
			m.MeasuredContext, m.Context = m.Context, req
		}
	}
	for i := range p.Prefill {
		m := &p.Prefill[i]
		if req, ok := prefillRow[m.Context]; ok {
			m.MeasuredContext, m.Context = m.Context, req
		}
	}
	p.Settings.Contexts = sorted(contexts)
	p.Settings.Concurrencies = sorted(concurrencies)
	p.Settings.PrefillContexts = sorted(prefill)
}

func sorted(v []int) []int {
	slices.Sort(v)
	return slices.Compact(v)
}
