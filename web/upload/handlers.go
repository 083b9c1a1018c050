// Package upload serves every door a result file comes in by: the upload
// form and its drafts (preview, publish, discard), the API's POST and
// DELETE of a run, and lil-bench's upload protocol under /api/bench. Each
// passes the upload gate (web/kit) and ingests through the one door,
// ingest.Ingest. It must not import web/site or another area.
package upload

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the upload area needs of the database.
type Store interface {
	draftStore
	DeleteOwnedRun(ctx context.Context, id, handle string) error
	AccountOrgs(ctx context.Context, accountID int64) (member, invited []store.Membership, err error)
	MemberOrg(ctx context.Context, accountID int64, slug string) (*store.Membership, error)
	OrgNamed(ctx context.Context, slug string) (run.Org, error)
}

// Handlers serve the upload area's addresses.
type Handlers struct {
	*kit.Server
	store Store
}

// New returns the upload area's handlers.
func New(k *kit.Server, st Store) *Handlers { return &Handlers{Server: k, store: st} }
