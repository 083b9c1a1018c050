package report

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// ownFormats are the formats whose numbers are the report's own: no mapping
// to explain.
var ownFormats = map[string]bool{"llm-inference-bench": true, "lil-bench-result/1": true, "speedmatrix-run/1": true}

// docsAnchor maps a format to its section of docs/formats.md when the two
// differ (GenAI-Perf and AIPerf share one).
var docsAnchor = map[string]string{"aiperf": "genai-perf"}

// ToolDocsURL is the page that says how a tool's fields became the report's
// numbers, or "" for the formats that are the report's own.
func ToolDocsURL(format string) string {
	if format == "" || ownFormats[format] {
		return ""
	}
	anchor := format
	if a, ok := docsAnchor[format]; ok {
		anchor = a
	}
	return "/docs/formats#" + anchor
}

// Caveats words a run's notes: where a tool means something else by a number
// and it could not be converted.
func Caveats(r *run.Run, l *i18n.Localizer) []string {
	out := make([]string, 0, len(r.Notes))
	for _, code := range r.Notes {
		out = append(out, l.T("formats.note."+code, nil))
	}
	return out
}
