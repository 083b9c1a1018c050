// Package share renders a run for places outside the report page: link
// previews (the headline, the PNG card), exports (CSV, Markdown, BBCode,
// plain text) and embeds (the grid and badge SVGs). Every renderer is one
// function over a run.Run and the reader's i18n.Localizer, and takes its
// words and numbers from internal/report, so a forum post says what the
// page says.
package share

import (
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// SingleStream is the run's single-stream figure: total tok/s of the valid
// concurrency-1 cell at the smallest context where that cell is valid (the
// seed's 0×1 cell, 63.5). Nil when no concurrency-1 cell is valid.
func SingleStream(r *run.Run) *float64 {
	var best *run.DecodeCell
	for i := range r.Decode {
		c := &r.Decode[i]
		if c.Concurrency == 1 && c.Status == run.Valid && c.TotalTPS != nil &&
			(best == nil || c.Context < best.Context) {
			best = c
		}
	}
	if best == nil {
		return nil
	}
	return best.TotalTPS
}

// Peak is the highest total tok/s of any cell whose numbers mean something:
// valid AND queued cells. A queued cell measured real output with fewer
// streams at once than asked, which is still what the server delivered (the
// seed's peak, 545.9, is its queued 0×32 cell); the Share panel says so.
// Nil when no cell has numbers.
func Peak(r *run.Run) *float64 {
	var peak *float64
	for i := range r.Decode {
		c := &r.Decode[i]
		if (c.Status == run.Valid || c.Status == run.Queued) && c.TotalTPS != nil &&
			(peak == nil || *c.TotalTPS > *peak) {
			peak = c.TotalTPS
		}
	}
	return peak
}

// EngineName is the engine's display name and version: "vLLM 0.32.0". The
// display name comes from internal/catalog (vllm → vLLM, sglang → SGLang).
func EngineName(r *run.Run) string {
	return strings.TrimSpace(catalog.Engine(r.Engine.Name).Name + " " + r.Engine.Version)
}

// Headline is the run in one line: "Qwen3.5-4B-FP8-dynamic on RTX 3060 12GB
// · vLLM 0.32.0 · 63.5 tok/s single stream · 546 tok/s peak". Parts the run
// lacks are left out. Link previews, the card, the badge and the text
// exports all state it.
func Headline(r *run.Run, l *i18n.Localizer) string {
	return headlineOf(report.Title(r, l), r, Numbers(r, l), l)
}

// headlineOf is Headline from r's title and numbers.
func headlineOf(title string, r *run.Run, numbers []string, l *i18n.Localizer) string {
	parts := []string{title}
	if e := EngineName(r); e != "" {
		parts = append(parts, e)
	}
	parts = append(parts, numbers...)
	return strings.Join(parts, l.T("common.dot_sep", nil))
}

// Byline is who uploaded r, worded for an export by report.SubmitterLine:
// claimed or verified, never one looking like the other; "" without a name.
func Byline(r *run.Run, l *i18n.Localizer) string {
	return report.SubmitterLine(l, r.Submitter, r.SubmitterVerified, r.Org.Name)
}

// Numbers are the headline's figures, worded: "63.5 tok/s single stream",
// "546 tok/s peak"; either is left out when the run lacks it.
func Numbers(r *run.Run, l *i18n.Localizer) []string {
	var out []string
	if v := SingleStream(r); v != nil {
		out = append(out, l.T("share.headline.single", map[string]any{"V": report.FormatTPSShort(l, v)}))
	}
	if v := Peak(r); v != nil {
		out = append(out, l.T("share.headline.peak", map[string]any{"V": report.FormatTPSShort(l, v)}))
	}
	return out
}
