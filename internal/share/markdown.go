package share

import (
	"io"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Markdown writes r as Markdown that pastes cleanly into Reddit and GitHub:
// the title linked to pageURL, the headline numbers, engine and grid shape,
// the decode grid as a table (cells "63.5 · 96 ms" or the status label),
// the prefill table and a link back. Tables are GFM pipe tables, each after
// a blank line (old Reddit needs it); text from the run is escaped.
func Markdown(w io.Writer, r *run.Run, l *i18n.Localizer, pageURL string) error {
	_, err := io.WriteString(w, markdown(r, l, pageURL, newTables(r, l)))
	return err
}

// markdown is Markdown's text, with the tables made already.
func markdown(r *run.Run, l *i18n.Localizer, pageURL string, t *tables) string {
	var b strings.Builder
	b.Grow(2 * len(t.grids))
	sep := l.T("common.dot_sep", nil)
	b.WriteString("### [" + mdEscape(t.title) + "](" + pageURL + ")\n\n")
	if len(t.numbers) > 0 {
		b.WriteString("**" + mdEscape(strings.Join(t.numbers, sep)) + "**  \n")
	}
	b.WriteString(mdEscape(t.engine) + "  \n")
	if t.byline != "" {
		b.WriteString(mdEscape(t.byline) + "  \n")
	}
	b.WriteString(mdEscape(t.summary) + "\n\n")
	if t.median != "" {
		b.WriteString(mdEscape(t.median) + "\n\n")
	}
	b.WriteString("**" + mdEscape(l.T("run.section.decode", nil)) + "** " +
		mdEscape(l.T("share.decode_sub", nil)) + "\n\n")
	mdTable(&b, t.decode)
	if len(r.Prefill) > 0 {
		b.WriteString("**" + mdEscape(l.T("run.section.prefill", nil)) + "**\n\n")
		mdTable(&b, t.prefill)
	}
	if len(t.energy.rows) > 0 {
		b.WriteString("**" + mdEscape(l.T("share.energy", nil)) + "** " + mdEscape(l.T("share.energy_sub", nil)) + "\n\n")
		mdTable(&b, t.energy)
	}
	b.WriteString("[" + mdEscape(l.T("share.full_report", nil)) + "](" + pageURL + ")\n")
	return b.String()
}

// mdTable writes t as a GFM table, numbers right-aligned.
func mdTable(b *strings.Builder, t table) {
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + mdEscape(c) + " |")
		}
		b.WriteString("\n")
	}
	line(t.header)
	b.WriteString("|")
	for range t.header {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, r := range t.rows {
		line(r)
	}
	b.WriteString("\n")
}

// mdEscaper backslash-escapes every ASCII punctuation character Markdown
// could read as syntax, so a model named "a_b*c|d" stays that text.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`,
	"|", `\|`, "#", `\#`, "~", `\~`,
)

func mdEscape(s string) string { return mdEscaper.Replace(s) }

// EngineLineDisplay is report.EngineLine with the engine's display name:
// "vLLM · 0.32.0 · FP8 dynamic".
func EngineLineDisplay(r *run.Run, l *i18n.Localizer) string {
	c := *r
	if name := catalog.Engine(r.Engine.Name).Name; name != "" {
		c.Engine.Name = name
	}
	return report.EngineLine(&c, l)
}
