// Package web serves speedmatrix over HTTP: the router (routes.go), one file
// per page or endpoint, the middleware that picks the reader's language, and
// the adapter that turns a handler's error into a status and a page.
package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"golang.org/x/sync/singleflight"

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
	historyStore
	draftStore
	sessionStore
	myRunsStore
	adminStore
	GetRun(ctx context.Context, id string) (*run.Run, error)
	// GetRunReport is GetRun with the setup's engine versions, for the
	// report's history link, in one round trip.
	GetRunReport(ctx context.Context, id string) (*store.RunReport, error)
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
	// absolute links; empty means "the origin the request came to", which
	// is harmless only in a page's own links. Mailer and GitHub need it:
	// mailed links and the OAuth callback come from it alone, since a
	// request's Host is whatever the requester typed (New panics without).
	BaseURL string
	Logger  *slog.Logger
	// Version identifies the build; it is part of every ETag so a new
	// release never serves a page cached from the old one.
	Version string
	// Uploads is who may upload and how often (web/accounts.go); the zero
	// value allows anonymous uploads at the default rates.
	Uploads UploadPolicy
	// Now is the drafts' clock (when a preview expires); nil is time.Now.
	Now func() time.Time
	// CacheBytes bounds the page cache; 0 is DefaultCacheBytes.
	CacheBytes int
	// Metrics, when set, counts what this server does (metrics.go); the
	// caller serves its Handler where it wants.
	Metrics *Metrics
	// Mailer, when set (SMTP_URL), mails password resets and address
	// confirmations (mail.go); without it the operator makes reset links.
	Mailer Mailer
	// GitHub, with its client id and secret set, offers "Sign in with
	// GitHub" (github.go).
	GitHub GitHubApp
	// githubEndpoints replace GitHub's addresses, in tests only
	// (export_test.go).
	githubEndpoints *githubEndpoints
}

// Server holds the dependencies of the handlers.
type Server struct {
	store   Store
	bundle  *i18n.Bundle
	baseURL string
	log     *slog.Logger
	version string
	pages   *pageCache   // every cached answer (cached.go, cachepolicy.go)
	gens    *generations // what changed, so a hit asks the database nothing
	flight  singleflight.Group
	metrics *Metrics
	uploads *uploadGate
	now     func() time.Time
	auth    authLimits // sign-ins, sign-ups and one-time links (auth_limits.go)
	mailer  Mailer     // nil: no mail (mail.go)
	mails   mailLimits
	github  *githubAuth // nil: no GitHub sign-in (github.go)
	// compressor compresses the uncached answers (cachePages): one
	// for every route (routes makes it), since each makes a compressor of
	// each encoding (about a megabyte) to try it.
	compressor *middleware.Compressor
}

// DefaultCacheBytes bounds the page cache when Config.CacheBytes is 0:
// about 1,500 gzipped report pages, or 250 link-preview cards; a quarter of
// serve's default memory limit.
const DefaultCacheBytes = 16 << 20

// changeSource is a Store that tells of committed changes (store.Store).
type changeSource interface {
	OnChange(func(store.Change))
}

// New returns the site's handler. It panics when Mailer or GitHub is set
// without BaseURL: the configuration's reader refuses that first (serve
// exits naming BASE_URL), so reaching here is a caller's mistake, and a
// server built so would mail reset links on an attacker's host.
func New(cfg Config) http.Handler {
	if err := cfg.linksOrigin(); err != nil {
		panic(err)
	}
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = DefaultCacheBytes
	}
	s := &Server{store: cfg.Store, bundle: cfg.Bundle, baseURL: cfg.BaseURL, log: cfg.Logger, version: cfg.Version,
		pages: newPageCache(cfg.CacheBytes), gens: newGenerations(), metrics: cfg.Metrics,
		uploads: newUploadGate(cfg.Uploads), auth: newAuthLimits(cfg.Uploads.Now),
		mailer: cfg.Mailer, mails: newMailLimits(cfg.Uploads.Now), github: newGitHubAuth(cfg.GitHub, cfg.BaseURL, cfg.githubEndpoints)}
	if s.now = cfg.Now; s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.metrics == nil {
		s.metrics = NewMetrics()
	}
	s.metrics.watchCache(s.pages)
	if src, ok := cfg.Store.(changeSource); ok {
		// Our own commits arrive before the write returns, so the
		// instance that answered never serves stale; others' through
		// store.Listen.
		src.OnChange(func(c store.Change) {
			s.gens.apply(c)
			s.metrics.change(c)
		})
	}
	return s.routes()
}

// errNoBaseURL is New's refusal of mail or GitHub sign-in without BaseURL.
var errNoBaseURL = errors.New("web: mail and GitHub sign-in need Config.BaseURL: their links must never come from a request's Host")

// linksOrigin refuses a configuration whose links that leave the site
// (mail, the OAuth callback) would have no origin but the request's.
func (cfg Config) linksOrigin() error {
	if cfg.BaseURL == "" && (cfg.Mailer != nil || cfg.GitHub.on()) {
		return errNoBaseURL
	}
	return nil
}

// origin returns the site's public origin for a page's absolute URLs:
// BaseURL, else the origin the request came to. Never for a link that
// leaves the site (mail, OAuth), which use s.baseURL alone (linksOrigin).
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
