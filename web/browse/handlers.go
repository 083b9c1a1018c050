// Package browse serves the pages that find runs: home, the run list and
// its JSON twin, the leaderboard, search, the hardware, engine, model and
// submitter pages, compare and the history of a setup across engine
// versions. It must not import web/site or another area.
package browse

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the browse area needs of the database.
type Store interface {
	browseStore
	compareStore
	historyStore
	GetRun(ctx context.Context, id string) (*run.Run, error)
}

// Handlers serve the browse area's addresses.
type Handlers struct {
	*kit.Server
	store Store
}

// New returns the browse area's handlers.
func New(k *kit.Server, st Store) *Handlers { return &Handlers{Server: k, store: st} }
