// Package plan serves the planner: GET /plan, the page that answers "what
// should I run on this hardware?" from the measured runs and, apart, the
// decode calculator's estimates, and GET /api/v1/plan, the same answer as
// JSON. The answer itself is internal/plan's; the page's words are
// internal/planview's. It must not import web/site or another area.
package plan

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/catalog"
	"github.com/speedmatrix/speedmatrix/internal/plan"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the planner area needs of the database: the planner's
// cells and runs, and the names and lists of the hardware identities its
// heading and picker show.
type Store interface {
	plan.Store
	IdentityName(ctx context.Context, kind, slug string) (string, error)
	IdentityLists(ctx context.Context, kinds []string, limit int) (map[string][]catalog.Identity, error)
}

// Handlers serve the planner's addresses.
type Handlers struct {
	*kit.Server
	store Store
}

// New returns the planner area's handlers.
func New(k *kit.Server, st Store) *Handlers { return &Handlers{Server: k, store: st} }
