package templates

import "context"

// SharePanel is what the report's Share panel offers: the permalink and
// the run as Markdown, BBCode, plain text, an iframe snippet and a badge,
// each ready to copy, and links to the exports and images.
type SharePanel struct {
	Permalink                                    string
	Markdown, BBCode, Text, Embed, BadgeMarkdown string
	CSVURL, MarkdownURL, TextURL, BBCodeURL      string
	GridURL, CardURL, BadgeURL                   string
}

type shareKey struct{}

// WithSharePanel puts the Share panel of the report being rendered in ctx.
// The report page draws the panel only when one is there, so ReportPage
// keeps its signature and renders without it (benchmarks, other callers).
func WithSharePanel(ctx context.Context, p *SharePanel) context.Context {
	return context.WithValue(ctx, shareKey{}, p)
}

func sharePanelFrom(ctx context.Context) *SharePanel {
	p, _ := ctx.Value(shareKey{}).(*SharePanel)
	return p
}
