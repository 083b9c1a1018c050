package browse

import (
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// NewSearchPage is /search: what was asked, and the identities found, one
// group per kind in the order the store found the kinds.
func NewSearchPage(l *i18n.Localizer, query string, found []store.Found) SearchPage {
	p := SearchPage{Query: query}
	index := map[string]int{}
	for _, f := range found {
		i, ok := index[f.Kind]
		if !ok {
			i = len(p.Hits)
			index[f.Kind] = i
			p.Hits = append(p.Hits, LinkGroup{Label: l.T("search.kind."+f.Kind, nil)})
		}
		href := paths.Model // base models and variants
		switch f.Kind {
		case store.KindHardware:
			href = paths.Hardware
		case store.KindEngine:
			href = paths.Engine
		}
		p.Hits[i].Links = append(p.Hits[i].Links, Link{Href: href(f.Slug), Text: f.Name})
	}
	return p
}
