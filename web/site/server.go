// Package site serves speedmatrix over HTTP: the route table (routes.go),
// which lists every address in one place; the middleware every request
// takes (middleware.go, security.go, tracking.go); the page cache
// (cached.go, cachepolicy.go, pagecache.go, lru.go, stale.go); the adapter
// that turns a handler's error into a status and a page (handler.go); and
// the metrics. The pages and endpoints themselves live in one package per
// area (web/report, web/browse, web/upload, web/account, web/api,
// web/docs, web/plan, web/regressions), built from web/kit. site imports
// them; nothing imports site but the binary and tests.
package site

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"golang.org/x/sync/singleflight"

	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/web/account"
	"github.com/speedmatrix/speedmatrix/web/api"
	"github.com/speedmatrix/speedmatrix/web/browse"
	"github.com/speedmatrix/speedmatrix/web/docs"
	"github.com/speedmatrix/speedmatrix/web/kit"
	"github.com/speedmatrix/speedmatrix/web/plan"
	"github.com/speedmatrix/speedmatrix/web/regressions"
	"github.com/speedmatrix/speedmatrix/web/report"
	"github.com/speedmatrix/speedmatrix/web/upload"
)

// Store is what the site needs of the database: every area's part, and
// what the site itself asks (health, the schema's version).
type Store interface {
	kit.Store
	report.Store
	browse.Store
	upload.Store
	account.Store
	api.Store
	plan.Store
	regressions.Store
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
	// Uploads is who may upload and how often (web/kit/uploader.go); the
	// zero value allows anonymous uploads at the default rates.
	Uploads UploadPolicy
	// Now is the drafts' clock (when a preview expires); nil is time.Now.
	Now func() time.Time
	// CacheBytes bounds the page cache; 0 is DefaultCacheBytes.
	CacheBytes int
	// QuietRequests leaves out the log's line per request
	// (LOG_REQUESTS=false), for a site whose proxy in front logs them
	// already; warnings, errors and the metrics stay.
	QuietRequests bool
	// Metrics, when set, counts what this server does (metrics.go); the
	// caller serves its Handler where it wants.
	Metrics *Metrics
	// Mailer, when set (SMTP_URL), mails password resets and address
	// confirmations (web/account/mail.go); without it the operator makes reset links.
	Mailer Mailer
	// GitHub, with its client id and secret set, offers "Sign in with
	// GitHub" (web/account/github.go).
	GitHub GitHubApp
	// githubEndpoints replace GitHub's addresses, in tests only
	// (export_test.go).
	githubEndpoints *account.GitHubEndpoints
}

// Server is the site: the route table (routes.go), the middleware every
// request takes, the page cache and the error adapter, over the areas'
// handlers, which share the kit it embeds.
type Server struct {
	*kit.Server
	store  Store
	bundle *i18n.Bundle
	pages  *pageCache   // every cached answer (cached.go, cachepolicy.go)
	gens   *generations // what changed, so a hit asks the database nothing
	flight singleflight.Group
	// metrics count what the site does (metrics.go).
	metrics *Metrics
	// quietRequests leaves out the access log's lines (Config.QuietRequests).
	quietRequests bool
	// The areas, one package each.
	report  *report.Handlers
	browse  *browse.Handlers
	upload  *upload.Handlers
	account *account.Handlers
	api     *api.Handlers
	docs    *docs.Handlers
	plan    *plan.Handlers
	// regressions: changes between engine versions, page, feed and API.
	regressions *regressions.Handlers
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
	if cfg.Metrics == nil {
		cfg.Metrics = NewMetrics()
	}
	k := kit.New(kit.Config{Store: cfg.Store, BaseURL: cfg.BaseURL, Log: cfg.Logger, Version: cfg.Version, Now: cfg.Now,
		Uploads: cfg.Uploads, CountIngest: cfg.Metrics.countIngest})
	s := &Server{Server: k, store: cfg.Store, bundle: cfg.Bundle, pages: newPageCache(cfg.CacheBytes),
		gens: newGenerations(), metrics: cfg.Metrics, quietRequests: cfg.QuietRequests,
		report: report.New(k, cfg.Store), browse: browse.New(k, cfg.Store), upload: upload.New(k, cfg.Store),
		account: account.New(k, cfg.Store, account.Config{Mailer: cfg.Mailer, GitHub: cfg.GitHub,
			GitHubEndpoints: cfg.githubEndpoints, Now: cfg.Uploads.Now}),
		api: api.New(k, cfg.Store), docs: docs.New(k), plan: plan.New(k, cfg.Store),
		regressions: regressions.New(k, cfg.Store, cfg.Bundle.Localizer(i18n.English))}
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
	if cfg.BaseURL == "" && (cfg.Mailer != nil || cfg.GitHub.On()) {
		return errNoBaseURL
	}
	return nil
}

// The types a caller configures the site with, defined beside the code
// that uses them.
type (
	// UploadPolicy says who may upload and how often.
	UploadPolicy = kit.UploadPolicy
	// Mailer sends the site's mail.
	Mailer = account.Mailer
	// GitHubApp is the OAuth app of "Sign in with GitHub".
	GitHubApp = account.GitHubApp
)

// Default upload rates (web/kit/uploader.go).
const (
	DefaultUploadsPerHourAddress = kit.DefaultUploadsPerHourAddress
	DefaultUploadsPerHourToken   = kit.DefaultUploadsPerHourToken
)
