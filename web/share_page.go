package web

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/share"
	"github.com/speedmatrix/speedmatrix/templates"
)

// shareReport dresses a report page for sharing: the headline becomes the
// page's description (and so og:description), the head gets the card as
// og:image and a Twitter large-image card, and the returned context
// carries the Share panel the report template draws. Every value is
// escaped by the templates.
func (s *Server) shareReport(ctx context.Context, r *http.Request, b *templates.Base, rn *run.Run, l *i18n.Localizer) context.Context {
	origin := strings.TrimSuffix(s.origin(r), "/")
	path := paths.Run(rn.ID)
	lang := "?lang=" + url.QueryEscape(l.Lang())
	headline := share.Headline(rn, l)
	card := origin + path + "/card.png" + lang
	b.Description = headline
	b.Meta = append(b.Meta,
		templates.MetaTag{Property: "og:image", Content: card},
		templates.MetaTag{Property: "og:image:type", Content: "image/png"},
		templates.MetaTag{Property: "og:image:width", Content: strconv.Itoa(share.CardWidth)},
		templates.MetaTag{Property: "og:image:height", Content: strconv.Itoa(share.CardHeight)},
		templates.MetaTag{Property: "og:image:alt", Content: l.T("share.card_alt", map[string]any{"Title": b.Title})},
		templates.MetaTag{Name: "twitter:card", Content: "summary_large_image"},
		templates.MetaTag{Name: "twitter:title", Content: b.Title},
		templates.MetaTag{Name: "twitter:description", Content: headline},
		templates.MetaTag{Name: "twitter:image", Content: card},
	)
	permalink := origin + path
	var md, bb, txt bytes.Buffer
	// Rendering into a buffer cannot fail.
	_ = share.Markdown(&md, rn, l, permalink)
	_ = share.BBCode(&bb, rn, l, permalink)
	_ = share.Text(&txt, rn, l, permalink)
	return templates.WithSharePanel(ctx, &templates.SharePanel{
		Permalink: permalink, Markdown: md.String(), BBCode: bb.String(), Text: txt.String(),
		Embed:         share.EmbedHTML(rn, l, origin+path+"/embed"+lang),
		BadgeMarkdown: share.BadgeMarkdown(rn, l, origin+path+"/badge.svg"+lang, permalink),
		CSVURL:        path + ".csv", MarkdownURL: path + ".md", TextURL: path + ".txt", BBCodeURL: path + ".bbcode",
		GridURL: path + "/grid.svg", CardURL: path + "/card.png", BadgeURL: path + "/badge.svg",
	})
}

// runEmbed is GET /runs/{id}/embed: the grid alone, for an iframe on
// another site. It is the one page other origins may frame; it is not
// indexed, and names the report as its canonical page.
func (s *Server) runEmbed(w http.ResponseWriter, r *http.Request) error {
	id := chi.URLParam(r, "id")
	rn, done, err := s.loadShared(w, r, id, "embed")
	if err != nil || done {
		return err
	}
	l := i18n.FromContext(r.Context())
	v := report.Build(rn, l)
	b := templates.NewBase(l, s.origin(r), &url.URL{Path: paths.Run(id)}, l.T("share.embed_title", map[string]any{"Title": v.Title}), "")
	h := w.Header()
	h.Set("Content-Security-Policy", strings.Replace(h.Get("Content-Security-Policy"),
		"frame-ancestors 'none'", "frame-ancestors *", 1))
	h.Set("Cache-Control", "no-cache")
	return render(w, r, http.StatusOK, templates.EmbedPage(b, v, s.reportURL(r, id, nil)))
}
