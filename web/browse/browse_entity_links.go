package browse

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/speedmatrix/speedmatrix/internal/browse"
	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// seenWith loads the identities an entity page links across to: those of
// the kinds browse.SeenKinds names. A submitter's come from their newest
// runs.
func (s *Handlers) seenWith(ctx context.Context, kind, slug string, items []store.RunItem) ([]store.Found, error) {
	kinds := browse.SeenKinds(kind)
	if kind == store.KindSubmitter {
		return s.seenInRuns(ctx, items, kinds)
	}
	return s.store.SeenWith(ctx, kind, slug, kinds)
}

// seenInRuns is SeenWith for a submitter, whose runs form no groups: the
// identities of the kinds in their newest runs, by kind, then by name.
func (s *Handlers) seenInRuns(ctx context.Context, items []store.RunItem, kinds []string) ([]store.Found, error) {
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
