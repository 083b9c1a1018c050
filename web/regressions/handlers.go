// Package regressions serves the regressions and speedups between engine
// versions: the /regressions page with its filters, its Atom feed, and
// GET /api/v1/regressions. The store finds the changes (they are kept by
// a fold, store/regressions); package regressview words them. It must not
// import web/site or another area.
package regressions

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the regressions area needs of the database.
type Store interface {
	VersionChanges(ctx context.Context, q store.VersionChangeQuery) ([]store.VersionChange, error)
	IdentityLists(ctx context.Context, kinds []string, limit int) (map[string][]catalog.Identity, error)
}

// Handlers serve the regressions area's addresses.
type Handlers struct {
	*kit.Server
	store Store
	// en words the upstream reports, written in English for the engines'
	// maintainers whatever the reader's language.
	en *i18n.Localizer
}

// New returns the regressions area's handlers; en is the English
// localizer the upstream reports are written with.
func New(k *kit.Server, st Store, en *i18n.Localizer) *Handlers {
	return &Handlers{Server: k, store: st, en: en}
}
