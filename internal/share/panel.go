package share

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Panel is what the report's Share panel offers: the permalink and the
// run as Markdown, BBCode, plain text, an iframe snippet and a badge, each
// ready to copy, and links to the exports and images.
type Panel struct {
	Permalink                                    string
	Markdown, BBCode, Text, Embed, BadgeMarkdown string
	CSVURL, MarkdownURL, TextURL, BBCodeURL      string
	GridURL, CardURL, BadgeURL                   string
	// BadgeWidth sizes the badge's image on the page.
	BadgeWidth int
}

// NewPanel is the Share panel of r for a reader of l's language. origin is
// the site's public scheme and host: what is copied elsewhere links back
// absolutely, the images in the reader's language; the page's own
// download links stay relative.
func NewPanel(r *run.Run, l *i18n.Localizer, origin string) *Panel {
	return NewPanelOf(report.Build(r, l), r, l, origin)
}

// NewPanelOf is NewPanel for a report page that has built r's view v
// already: the exports' tables reuse its grid.
func NewPanelOf(v *report.View, r *run.Run, l *i18n.Localizer, origin string) *Panel {
	origin = strings.TrimSuffix(origin, "/")
	lang := langQuery(l)
	permalink := paths.RunURL(origin, r.ID)
	// The three exports share their tables, each the report's grid once
	// more.
	t := newTablesOf(v, r, l)
	return &Panel{
		Permalink: permalink, Markdown: markdown(r, l, permalink, t), BBCode: bbcode(r, l, permalink, t),
		Text:          plainText(r, l, permalink, true, t),
		Embed:         EmbedHTML(r, l, origin+paths.RunFile(r.ID, "/embed")+lang),
		BadgeMarkdown: BadgeMarkdown(r, l, origin+paths.RunFile(r.ID, "/badge.svg")+lang, permalink),
		CSVURL:        paths.RunFile(r.ID, ".csv"), MarkdownURL: paths.RunFile(r.ID, ".md"),
		TextURL: paths.RunFile(r.ID, ".txt"), BBCodeURL: paths.RunFile(r.ID, ".bbcode"),
		GridURL: paths.RunFile(r.ID, "/grid.svg"), CardURL: paths.RunFile(r.ID, "/card.png"),
		// The page's own badge names the run's revision: such an address
		// never changes content, so browsers may keep it (runImage).
		BadgeURL:   paths.RunFile(r.ID, "/badge.svg") + lang + "&v=" + strconv.FormatInt(r.Revision, 10),
		BadgeWidth: BadgeWidth(r, l),
	}
}

// Preview is a report page's link preview: what a forum or chat shows of
// a pasted link (OpenGraph and Twitter card tags).
type Preview struct {
	// Title is the run's title; Headline, its numbers in one line, is the
	// page's description.
	Title, Headline string
	// Card is the card image's absolute address, in the reader's
	// language; CardAlt describes it. The card is CardWidth × CardHeight.
	Card, CardAlt string
}

// NewPreview is the link preview of r's report for a reader of l's
// language, with absolute addresses under origin.
func NewPreview(r *run.Run, l *i18n.Localizer, origin string) Preview {
	title := report.Title(r, l)
	return Preview{
		Title: title, Headline: Headline(r, l),
		Card:    strings.TrimSuffix(origin, "/") + paths.RunFile(r.ID, "/card.png") + langQuery(l),
		CardAlt: l.T("share.card_alt", map[string]any{"Title": title}),
	}
}

// langQuery keeps the reader's language on an address another site
// fetches, which has no cookie to carry it.
func langQuery(l *i18n.Localizer) string { return "?lang=" + url.QueryEscape(l.Lang()) }
