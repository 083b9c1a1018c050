// Package web serves speedmatrix over HTTP: the router (routes.go), one file
// per page or endpoint, the middleware that picks the reader's language, and
// the adapter that turns a handler's error into a status and a page.
package web

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/run"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Store is what the web layer needs of the database. Each area of the site
// declares the part it uses beside its handlers.
type Store interface {
	ingest.Store
	browseStore
	compareStore
	shareStore
	accountStore
	sessionStore
	myRunsStore
	adminStore
	GetRun(ctx context.Context, id string) (*run.Run, error)
	GetSource(ctx context.Context, id string) ([]byte, run.Source, error)
	RunRevision(ctx context.Context, id string) (int64, error)
	ListRecent(ctx context.Context, limit int) ([]store.RunSummary, error)
	Ping(ctx context.Context) error
	SchemaCurrent(ctx context.Context) error
}

// Config is what a Server is built from.
type Config struct {
	Store  Store
	Bundle *i18n.Bundle
	// BaseURL is the public origin ("https://speedmatrix.example") used in
	// absolute links; empty means "the origin the request came to".
	BaseURL string
	Logger  *slog.Logger
	// Version identifies the build; it is part of every ETag so a new
	// release never serves a page cached from the old one.
	Version string
	// Uploads is who may upload and how often (web/accounts.go); the zero
	// value allows anonymous uploads at the default rates.
	Uploads UploadPolicy
}

// Server holds the dependencies of the handlers.
type Server struct {
	store   Store
	bundle  *i18n.Bundle
	baseURL string
	log     *slog.Logger
	version string
	pages   *pageCache
	cards   *cardCache // link-preview PNGs (share_card.go)
	uploads *uploadGate
	logins  *loginLimiter // failed sign-ins (login_limit.go)
}

// pageCacheBytes bounds the rendered-report cache: about 700 seed-sized
// pages in two encodings.
const pageCacheBytes = 32 << 20

// New returns the site's handler.
func New(cfg Config) http.Handler {
	s := &Server{store: cfg.Store, bundle: cfg.Bundle, baseURL: cfg.BaseURL, log: cfg.Logger, version: cfg.Version,
		pages: newPageCache(pageCacheBytes), cards: newCardCache(cardCacheBytes), uploads: newUploadGate(cfg.Uploads),
		logins: newLoginLimiter(cfg.Uploads.Now)}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s.routes()
}

// origin returns the site's public origin for absolute URLs.
func (s *Server) origin(r *http.Request) string {
	if s.baseURL != "" {
		return s.baseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
