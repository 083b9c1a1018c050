package kit

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/ingest"
	"github.com/speedmatrix/speedmatrix/internal/problem"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// Store is what kit needs of the database: sessions and the accounts
// behind them, the tokens uploads come with, the drafts a sign-out
// disowns, whether a run was deleted, the claim an anonymous upload
// gives its browser, and ingesting an upload.
type Store interface {
	ingest.Store
	SessionStore
	TokenUploader(ctx context.Context, hash []byte) (handle, org string, err error)
	DisownDrafts(ctx context.Context, handle, owner string) error
	RunGone(ctx context.Context, id string) (bool, error)
	SetClaim(ctx context.Context, id string, hash []byte) error
}

// Config is what a Server is built from.
type Config struct {
	Store Store
	// BaseURL is the public origin; empty means the origin a request came
	// to (see Origin).
	BaseURL string
	Log     *slog.Logger
	// Version identifies the build, part of every ETag.
	Version string
	// Now is the drafts' clock; nil is time.Now.
	Now     func() time.Time
	Uploads UploadPolicy
	// CountIngest counts an upload's outcome by format (the metrics);
	// nil counts nothing.
	CountIngest func(format, outcome string)
}

// Server holds what every area's handlers share. Each area's Handlers
// embeds it, so a handler reads s.Log, s.Base(…) or s.SignedInAccount(…)
// whichever area it is in.
type Server struct {
	store Store
	// BaseURL is the public origin ("https://speedmatrix.example"), or
	// "" (see Origin). Links that leave the site use it alone.
	BaseURL string
	Log     *slog.Logger
	Version string
	Now     func() time.Time
	// Uploads is the gate every upload passes first (uploader.go).
	Uploads     *UploadGate
	countIngest func(format, outcome string)
}

// New returns the shared part of every area's handlers.
func New(cfg Config) *Server {
	s := &Server{store: cfg.Store, BaseURL: cfg.BaseURL, Log: cfg.Log, Version: cfg.Version, Now: cfg.Now,
		Uploads: NewUploadGate(cfg.Uploads), countIngest: cfg.CountIngest}
	if s.Now == nil {
		s.Now = time.Now
	}
	if s.Log == nil {
		s.Log = slog.Default()
	}
	if s.countIngest == nil {
		s.countIngest = func(string, string) {}
	}
	return s
}

// Origin returns the site's public origin for a page's absolute URLs:
// BaseURL, else the origin the request came to. Never for a link that
// leaves the site (mail, OAuth), which use BaseURL alone.
func (s *Server) Origin(r *http.Request) string {
	if s.BaseURL != "" {
		return s.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// Ingest runs an upload through ingest.Ingest, the one door every upload
// takes, and counts its outcome.
func (s *Server) Ingest(ctx context.Context, up ingest.Upload) (*ingest.Result, error) {
	res, err := ingest.Ingest(ctx, s.store, up)
	format, outcome := "unknown", "created"
	switch _, refused := problem.As(err); {
	case err == nil:
		format = res.Format
		if !res.Created {
			outcome = "duplicate"
		}
	case refused:
		outcome = "refused"
	case store.IsUnavailable(err) || errors.Is(err, context.DeadlineExceeded):
		outcome = "unavailable"
	default:
		outcome = "error"
	}
	s.countIngest(format, outcome)
	return res, err
}

// GoneOr turns a run's not-found into 410 Gone when its submitter deleted
// it; any other error passes.
func (s *Server) GoneOr(r *http.Request, id string, err error) error {
	if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	gone, gerr := s.store.RunGone(r.Context(), id)
	if gerr != nil {
		return gerr
	}
	if gone {
		return ErrGone
	}
	return err
}

// ValidID cheaply refuses ids no run can have, before asking the database.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}
