// Package templates renders the portal's HTML pages with templ. Pages take
// their words from the request's localizer (i18n.FromContext) and their run
// data from report.View; every value is escaped by templ.
package templates

import (
	"context"
	"net/url"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/report"
	"github.com/speedmatrix/speedmatrix/internal/run"
)

// Base is what every page's frame needs: title, language and the links to
// the same page in every language.
type Base struct {
	Title, Description, Lang, Path, CanonicalURL string
	// Alternates are the hreflang links, one per language plus x-default.
	Alternates []Alternate
	// Languages feed the switcher; each link keeps the current page.
	Languages []LangLink
	// Meta are extra <meta> tags for the head (a run page's og:image and
	// Twitter card); the layout escapes them like any value.
	Meta []MetaTag
}

// MetaTag is one extra <meta>: Property for OpenGraph ("og:image"), Name
// for the others ("twitter:card").
type MetaTag struct {
	Property, Name, Content string
}

// Alternate is one <link rel="alternate" hreflang>.
type Alternate struct {
	Lang, Href string
}

// LangLink is one entry of the language switcher.
type LangLink struct {
	Tag, Name, Href string
	Current         bool
}

// NewBase builds the frame of a page for the request URL u. baseURL is the
// site's public origin ("https://speedmatrix.example", no trailing slash)
// for the absolute canonical and alternate links. The page's other query
// parameters are kept in every language link (a compare page keeps its
// runs); a translation's canonical URL names its language so each is its
// own page to search engines, and the address without ?lang= is x-default
// and its own canonical.
func NewBase(l *i18n.Localizer, baseURL string, u *url.URL, title, description string) Base {
	baseURL = strings.TrimSuffix(baseURL, "/")
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	withLang := func(tag string) string {
		q := u.Query()
		if tag == "" {
			q.Del("lang")
		} else {
			q.Set("lang", tag)
		}
		if enc := q.Encode(); enc != "" {
			return path + "?" + enc
		}
		return path
	}
	// The bare address is the x-default page and names itself: a canonical
	// pointing at one of its own hreflang alternates would tell search
	// engines the two are one page in one language.
	canonical := withLang("")
	if u.Query().Has("lang") {
		canonical = withLang(l.Lang())
	}
	b := Base{
		Title: title, Description: description, Lang: l.Lang(), Path: u.Path,
		CanonicalURL: baseURL + canonical,
	}
	for _, lang := range i18n.Languages {
		b.Alternates = append(b.Alternates, Alternate{Lang: lang.Tag, Href: baseURL + withLang(lang.Tag)})
		b.Languages = append(b.Languages, LangLink{Tag: lang.Tag, Name: lang.Name,
			Href: withLang(lang.Tag), Current: lang.Tag == l.Lang()})
	}
	b.Alternates = append(b.Alternates, Alternate{Lang: "x-default", Href: baseURL + withLang("")})
	return b
}

// RunListItem is one run in a list (home page, browse).
type RunListItem struct {
	ID, Title, EngineLine, Summary, Submitter string
}

// NewRunListItem describes r for a list, worded like its report page.
func NewRunListItem(r *run.Run, l *i18n.Localizer) RunListItem {
	item := RunListItem{ID: r.ID, Title: report.Title(r, l), EngineLine: report.EngineLine(r, l),
		Summary: report.Summary(r, l)}
	item.Submitter = report.SubmitterByFor(l, r.Submitter, r.SubmitterVerified, r.Org.Name)
	return item
}

// t is the templates' shorthand for a message without data.
func t(ctx context.Context, id string) string {
	return i18n.FromContext(ctx).T(id, nil)
}

// td is t with data.
func td(ctx context.Context, id string, data map[string]any) string {
	return i18n.FromContext(ctx).T(id, data)
}

// runURL is the address of a run's report page.
func runURL(id string) string { return paths.Run(id) }
