// Package upstream writes a regression or speedup between engine versions
// as a report for the engine's issue tracker: Markdown to copy, and a
// new-issue link with the title and a body filled in for the engines
// whose trackers take them (vLLM, SGLang, llama.cpp). Its text is in
// English whatever the reader's language: it is written for the engine's
// maintainers.
package upstream

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/differs"
	"github.com/speedmatrix/speedmatrix/internal/flags"
	"github.com/speedmatrix/speedmatrix/internal/regress"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Report is what a report to the engine's tracker says about one change.
type Report struct {
	// Entry is the change and the runs that stand for each version.
	regress.Entry
	// Engine is the engine's display name ("vLLM"); Hardware, Model and
	// Quantization name the setup as the site's English pages do.
	Engine, Hardware, Model, Quantization string
	// OldURL, NewURL and PageURL are absolute addresses of both runs'
	// reports and of the change on /regressions.
	OldURL, NewURL, PageURL string
}

// trackers are the new-issue pages of the engines whose trackers take a
// title and a body in the address, by flags.EngineOf's names.
var trackers = map[string]string{
	flags.VLLM:     "https://github.com/vllm-project/vllm/issues/new",
	flags.SGLang:   "https://github.com/sgl-project/sglang/issues/new",
	flags.LlamaCpp: "https://github.com/ggml-org/llama.cpp/issues/new",
}

// titlePrefix is how a tracker marks a performance report in its titles.
var titlePrefix = map[string]string{flags.VLLM: "[Performance]: "}

// maxIssueURL keeps a new-issue address well under what GitHub and
// browsers accept (about 8 KB): past it the link carries the short body
// and the full text stays in the page's copy block.
const maxIssueURL = 6000

// engineKey is the tracker key of u's engine.
func (u Report) engineKey() string { return flags.EngineOf(u.New.Engine.Name) }

// Title is the issue's title: "[Performance]: 20 % lower total tok/s in
// 0.32.0 than 0.31.0 (RTX 3060 12GB, Qwen3.5-4B)".
func (u Report) Title() string {
	way := "lower"
	if u.Kind == regress.Speedup {
		way = "higher"
	}
	return fmt.Sprintf("%s%s %% %s total tok/s in %s than %s (%s, %s)", titlePrefix[u.engineKey()],
		pct(math.Abs(u.Percent)), way, u.NewVersion, u.OldVersion, u.Hardware, u.Model)
}

// IssueURL is the engine's new-issue page with the title and a body
// filled in (the whole text when the address stays short enough, else
// the short body), or "" for an engine without a known tracker.
func (u Report) IssueURL() string {
	base, ok := trackers[u.engineKey()]
	if !ok {
		return ""
	}
	for _, body := range []string{u.Markdown(), u.ShortBody()} {
		v := url.Values{"title": {u.Title()}, "body": {body}}
		if link := base + "?" + v.Encode(); len(link) <= maxIssueURL {
			return link
		}
	}
	return base + "?" + url.Values{"title": {u.Title()}}.Encode()
}

// ShortBody is the body a long report's link carries: the setup, the
// headline change and where the rest is.
func (u Report) ShortBody() string {
	var b strings.Builder
	u.summary(&b)
	fmt.Fprintf(&b, "\nEvery shared cell, both launch commands and drivers: %s\n", u.PageURL)
	return b.String()
}

// summary writes the lines every report starts with.
func (u Report) summary(b *strings.Builder) {
	fmt.Fprintf(b, "**Engine:** %s %s → %s\n", u.Engine, u.OldVersion, u.NewVersion)
	fmt.Fprintf(b, "**Hardware:** %s\n", u.Hardware)
	fmt.Fprintf(b, "**Model:** %s", u.Model)
	if u.Quantization != "" {
		fmt.Fprintf(b, " (%s)", u.Quantization)
	}
	b.WriteString("\n")
	moved := 0
	for _, c := range u.Cells {
		if math.Abs(c.Change()) >= regress.Threshold-tolerance {
			moved++
		}
	}
	if u.HasHeadline {
		fmt.Fprintf(b, "**Change:** %s total tok/s at %s (%s → %s); %d of %d shared cells moved 10 %% or more.\n",
			signed(u.Headline.Change()*100), cellName(u.Headline.Cell), tps(u.Headline.Old), tps(u.Headline.New),
			moved, len(u.Cells))
	} else {
		fmt.Fprintf(b, "**Change:** %s total tok/s (median of %d shared cells); %d moved 10 %% or more.\n",
			signed(u.Percent), len(u.Cells), moved)
	}
}

// Markdown is the whole report: the setup, every shared cell before →
// after with its change, what else changed, both launch commands and
// drivers, and both runs' addresses.
func (u Report) Markdown() string {
	var b strings.Builder
	u.summary(&b)
	fmt.Fprintf(&b, "\n| Context × concurrency | %s tok/s | %s tok/s | Change |\n|---|---:|---:|---:|\n",
		cellEscape(u.OldVersion), cellEscape(u.NewVersion))
	for _, c := range u.Cells {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cellName(c.Cell), tps(c.Old), tps(c.New), signed(c.Change()*100))
	}
	if ch := differs.SetupChanges(u.Old, u.New); len(ch) > 0 {
		b.WriteString("\n**The setup changed too** (not only the engine version):\n")
		for _, d := range ch {
			fmt.Fprintf(&b, "- %s: %s → %s\n", setupName(d), orNone(d.Other), orNone(d.This))
		}
	}
	for _, side := range []struct {
		version, url string
		r            *run.Run
	}{{u.OldVersion, u.OldURL, u.Old}, {u.NewVersion, u.NewURL, u.New}} {
		fmt.Fprintf(&b, "\n**%s %s run:** %s\n", u.Engine, side.version, side.url)
		if d := side.r.Hardware.Driver; d != "" {
			fmt.Fprintf(&b, "- Driver: %s\n", d)
		}
		if cmd := strings.TrimSpace(side.r.Engine.LaunchCommand); cmd != "" {
			fence := "```"
			for strings.Contains(cmd, fence) {
				fence += "`"
			}
			fmt.Fprintf(&b, "- Launch command:\n\n%s\n%s\n%s\n", fence, cmd, fence)
		}
	}
	fmt.Fprintf(&b, "\nTotal tok/s is each version's best valid measurement per cell. Details: %s\n", u.PageURL)
	return b.String()
}

// tolerance absorbs floating-point noise at the threshold, as
// regress.Detect does.
const tolerance = 1e-9

// setupName names a setup change for maintainers: a flag as typed, else
// the fact.
func setupName(d differs.Difference) string {
	if d.Field == differs.FieldFlag {
		return "`--" + d.Flag + "`"
	}
	return d.Field
}

func orNone(s string) string {
	if s == "" {
		return "(not set)"
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

// cellEscape keeps a table cell one cell.
func cellEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// cellName is "0 × 1": context tokens × concurrent requests.
func cellName(c regress.Cell) string {
	return strconv.Itoa(c.Context) + " × " + strconv.Itoa(c.Concurrency)
}

func tps(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func pct(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// signed is a per cent with its sign: "−20.0 %", "+12.5 %".
func signed(v float64) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', 1, 64) + " %"
	if v < 0 {
		return "−" + s
	}
	return "+" + s
}
