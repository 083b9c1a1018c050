package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// sessionStore is what browser accounts need of the database.
type sessionStore interface {
	CreateAccount(ctx context.Context, handle, email, passwordHash string) (int64, error)
	AccountByEmail(ctx context.Context, email string) (*store.Account, error)
	CreateSession(ctx context.Context, accountID int64, hash []byte, expires time.Time) error
	SessionAccount(ctx context.Context, hash []byte) (*store.Account, error)
	DeleteSession(ctx context.Context, hash []byte) error
	DeleteSessions(ctx context.Context, accountID int64) (int64, error)
	ResetAccount(ctx context.Context, hash []byte) (*store.Account, error)
	UseReset(ctx context.Context, hash []byte, passwordHash string) error
	CreateToken(ctx context.Context, handle string, hash []byte, prefix string) error
	ListTokens(ctx context.Context, accountID int64) ([]store.TokenInfo, error)
	RevokeOwnToken(ctx context.Context, accountID int64, prefix string) error
	CreateReset(ctx context.Context, handle string, hash []byte, expires time.Time) error
	// Sign-up by mail, address confirmation and GitHub (accounts_confirm.go,
	// accounts_email.go, github.go).
	HandleAvailable(ctx context.Context, handle string) error
	CreateConfirmedAccount(ctx context.Context, a store.NewAccount) (int64, error)
	CreatePendingSignup(ctx context.Context, hash []byte, p store.PendingSignup, expires time.Time) error
	PendingSignupByHash(ctx context.Context, hash []byte) (*store.PendingSignup, error)
	TakePendingSignup(ctx context.Context, hash []byte) (*store.PendingSignup, error)
	CreateEmailConfirmation(ctx context.Context, accountID int64, email string, hash []byte, expires time.Time) error
	ConfirmEmail(ctx context.Context, hash []byte) error
	IdentityAccount(ctx context.Context, id store.Identity) (*store.Account, error)
	LinkIdentity(ctx context.Context, accountID int64, id store.Identity) error
	UnlinkIdentity(ctx context.Context, accountID int64, provider string) error
	AccountProviders(ctx context.Context, accountID int64) ([]string, error)
}

// sessionCookie names the browser's session; its value is a 256-bit secret
// of which the database keeps only the SHA-256.
const sessionCookie = "session"

// sessionLife is how long a sign-in lasts.
const sessionLife = 30 * 24 * time.Hour

// signedInAccount is the one answer to "who is signed in in this browser":
// the account of the request's live session cookie, or nil. A suspended
// account's session counts as none. Every page and form that cares asks
// here.
func (s *Server) signedInAccount(r *http.Request) (*store.Account, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	a, err := s.store.SessionAccount(r.Context(), accounts.Hash(c.Value))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return a, err
}

// startSession signs the browser in as account a with a new session: a
// fresh secret every time, so a session id planted before sign-in (session
// fixation) is worthless after it. The old session, if any, is ended.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a *store.Account) error {
	if err := s.dropSession(r); err != nil {
		return err
	}
	secret, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	expires := time.Now().Add(sessionLife)
	if err := s.store.CreateSession(r.Context(), a.ID, accounts.Hash(secret), expires); err != nil {
		return err
	}
	s.setCookie(w, r, sessionCookie, secret, expires)
	return nil
}

// endSession signs this browser out.
func (s *Server) endSession(w http.ResponseWriter, r *http.Request) error {
	if err := s.dropSession(r); err != nil {
		return err
	}
	s.setCookie(w, r, sessionCookie, "", time.Time{})
	return nil
}

// dropSession ends the request's session, if it has one, after its
// account's drafts have left the browsers (forgetDrafts).
func (s *Server) dropSession(r *http.Request) error {
	c, err := r.Cookie(sessionCookie)
	if err != nil || c.Value == "" {
		return nil
	}
	a, err := s.signedInAccount(r)
	if err != nil {
		return err
	}
	if err := s.forgetDrafts(r, a); err != nil {
		return err
	}
	return s.store.DeleteSession(r.Context(), accounts.Hash(c.Value))
}

// requireAccount is signedInAccount for pages that need one: signed out,
// the browser is sent to sign in and brought back afterwards.
func (s *Server) requireAccount(w http.ResponseWriter, r *http.Request) (*store.Account, error) {
	a, err := s.signedInAccount(r)
	if err != nil || a != nil {
		return a, err
	}
	return nil, &redirectTo{url: loginURL(r.URL.RequestURI())}
}

// loginURL is the sign-in page that returns to next afterwards.
func loginURL(next string) string {
	return "/login?" + url.Values{"next": {next}}.Encode()
}

// redirectTo is an error that answers with a 303 to url: a handler that
// finds the reader must go elsewhere returns it like any refusal.
type redirectTo struct{ url string }

func (e *redirectTo) Error() string { return "redirect to " + e.url }
