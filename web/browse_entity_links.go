package web

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/paths"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
)

// entityLinks links across: the hardware, engines, models (and an engine's
// versions, a base model's variants) seen with this identity, each kind by
// name. A submitter's come from their newest runs.
func (s *Server) entityLinks(ctx context.Context, l *i18n.Localizer, kind, slug string, items []store.RunItem) ([]templates.LinkGroup, error) {
	type part struct {
		kind, label string
		href        func(string) string
	}
	parts := []part{
		{store.KindHardware, "entity.links.hardware", paths.Hardware},
		{store.KindEngine, "entity.links.engines", paths.Engine},
		{store.KindModelBase, "entity.links.models", paths.Model},
	}
	if kind == store.KindModelBase {
		parts = append(parts, part{store.KindModel, "entity.links.variants", paths.Model})
	}
	parts = slices.DeleteFunc(parts, func(p part) bool { return p.kind == kind })
	var kinds []string
	for _, pt := range parts {
		kinds = append(kinds, pt.kind)
	}
	var seen []store.Found
	var err error
	if kind == store.KindSubmitter {
		seen, err = s.seenInRuns(ctx, items, kinds)
	} else {
		seen, err = s.store.SeenWith(ctx, kind, slug, kinds)
	}
	if err != nil {
		return nil, err
	}
	var out []templates.LinkGroup
	for _, pt := range parts {
		lg := templates.LinkGroup{Label: l.T(pt.label, nil)}
		for _, f := range seen {
			if f.Kind == pt.kind {
				lg.Links = append(lg.Links, templates.Link{Href: pt.href(f.Slug), Text: f.Name})
			}
		}
		out = append(out, lg)
	}
	if kind == store.KindEngine {
		// An engine's versions, newest first, each with its runs.
		versions, err := s.store.EngineVersions(ctx, slug)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(versions, func(a, b store.VersionRuns) int { return strings.Compare(b.Version, a.Version) })
		lg := templates.LinkGroup{Label: l.T("entity.links.versions", nil)}
		for _, v := range versions {
			lg.Links = append(lg.Links, templates.Link{
				Href: "/runs?" + url.Values{"engine": {slug}, "version": {v.Version}}.Encode(),
				Text: fmt.Sprintf("%s (%s)", v.Version, l.Int(v.Runs))})
		}
		out = append([]templates.LinkGroup{lg}, out...)
	}
	return out, nil
}

// seenInRuns is SeenWith for a submitter, whose runs form no groups: the
// identities of the kinds in their newest runs, by kind, then by name.
func (s *Server) seenInRuns(ctx context.Context, items []store.RunItem, kinds []string) ([]store.Found, error) {
	var out []store.Found
	for _, k := range kinds {
		var slugs []string
		for _, it := range items {
			sl := map[string]string{store.KindHardware: it.HardwareSlug, store.KindEngine: it.EngineSlug,
				store.KindModelBase: it.ModelBaseSlug}[k]
			if sl != "" && !slices.Contains(slugs, sl) {
				slugs = append(slugs, sl)
			}
		}
		names, err := s.store.IdentityNames(ctx, k, slugs)
		if err != nil {
			return nil, err
		}
		var found []store.Found
		for _, sl := range slugs {
			found = append(found, store.Found{Kind: k, Identity: catalog.Identity{Slug: sl, Name: names[sl]}})
		}
		slices.SortFunc(found, func(a, b store.Found) int {
			return cmp.Or(strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), strings.Compare(a.Slug, b.Slug))
		})
		out = append(out, found...)
	}
	return out, nil
}
