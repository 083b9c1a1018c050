// Package api serves the API's own addresses: its documentation page and
// OpenAPI document, the lists of hardware, engines and models, the decode
// calculator as JSON, and the cross-origin rules of every API read. The
// JSON twins of pages (a run, the run list) are served by the areas that
// own those pages. It must not import web/site or another area.
package api

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the api area needs of the database.
type Store interface {
	CountIdentities(ctx context.Context, kind string) ([]store.IdentityRuns, error)
}

// Handlers serve the api area's addresses.
type Handlers struct {
	*kit.Server
	store Store
}

// New returns the api area's handlers.
func New(k *kit.Server, st Store) *Handlers { return &Handlers{Server: k, store: st} }
