// Package report serves one run: its report page (run_page.go), the file it
// was read from (run_source.go), and its twins made for sharing: the JSON,
// CSV, Markdown, text and BBCode exports, the link-preview card, the grid
// and badge images, the embeddable page (share*.go), and the sitemap that
// lists every run. It must not import web/site or another area.
package report

import (
	"context"

	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// Store is what the report area needs of the database.
type Store interface {
	differsStore
	GetRun(ctx context.Context, id string) (*run.Run, error)
	// GetRunReport is GetRun with the setup's engine versions, for the
	// report's history link, in one round trip.
	GetRunReport(ctx context.Context, id string) (*store.RunReport, error)
	GetSource(ctx context.Context, id string) ([]byte, run.Source, error)
	RunRevision(ctx context.Context, id string) (int64, error)
	SitemapRuns(ctx context.Context, limit int) ([]store.SitemapRun, error)
}

// Handlers serve the report area's addresses.
type Handlers struct {
	*kit.Server
	store Store
}

// New returns the report area's handlers.
func New(k *kit.Server, st Store) *Handlers { return &Handlers{Server: k, store: st} }
