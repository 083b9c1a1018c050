package kit

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/store"
)

// SessionStore is what browser accounts need of the database.
type SessionStore interface {
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
	// Sign-up by mail, address confirmation and GitHub (web/account/accounts_confirm.go,
	// accounts_email.go and github.go).
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

// SessionCookie names the browser's session; its value is a 256-bit secret
// of which the database keeps only the SHA-256.
const SessionCookie = "session"

// sessionLife is how long a sign-in lasts.
const sessionLife = 30 * 24 * time.Hour

// SignedInAccount is the one answer to "who is signed in in this browser":
// the account of the request's live session cookie, or nil. A suspended
// account's session counts as none. Every page and form that cares asks
// here.
func (s *Server) SignedInAccount(r *http.Request) (*store.Account, error) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	a, err := s.store.SessionAccount(r.Context(), accounts.Hash(c.Value))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return a, err
}

// StartSession signs the browser in as account a with a new session: a
// fresh secret every time, so a session id planted before sign-in (session
// fixation) is worthless after it. The old session, if any, is ended.
func (s *Server) StartSession(w http.ResponseWriter, r *http.Request, a *store.Account) error {
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
	s.SetCookie(w, r, SessionCookie, secret, expires)
	return nil
}

// EndSession signs this browser out.
func (s *Server) EndSession(w http.ResponseWriter, r *http.Request) error {
	if err := s.dropSession(r); err != nil {
		return err
	}
	s.SetCookie(w, r, SessionCookie, "", time.Time{})
	return nil
}

// dropSession ends the request's session, if it has one, after its
// account's drafts have left the browsers (forgetDrafts).
func (s *Server) dropSession(r *http.Request) error {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil
	}
	a, err := s.SignedInAccount(r)
	if err != nil {
		return err
	}
	if err := s.ForgetDrafts(r, a); err != nil {
		return err
	}
	return s.store.DeleteSession(r.Context(), accounts.Hash(c.Value))
}

// RequireAccount is signedInAccount for pages that need one: signed out,
// the browser is sent to sign in and brought back afterwards.
func (s *Server) RequireAccount(w http.ResponseWriter, r *http.Request) (*store.Account, error) {
	a, err := s.SignedInAccount(r)
	if err != nil || a != nil {
		return a, err
	}
	return nil, &Redirect{URL: LoginURL(r.URL.RequestURI())}
}

// LoginURL is the sign-in page that returns to next afterwards.
func LoginURL(next string) string {
	return "/login?" + url.Values{"next": {next}}.Encode()
}

// AccountOwner is the owner key of the drafts an account made in browsers
// it has signed out of.
func AccountOwner(a *store.Account) string { return "account:" + strconv.FormatInt(a.ID, 10) }

// ForgetDrafts is called as this browser's session ends (sign-out, sign
// out everywhere, or another sign-in in its place): the drafts the account
// made in browsers stop being theirs, so whoever uses this browser next
// neither sees nor publishes them. They are given to the account rather
// than deleted, so nothing the user would expect is lost: signed in again,
// in any browser, they find each preview at its address until it expires.
// Every browser's drafts of the account go, not only this one's (whose
// drafts cookie a sign-out under /logout does not carry); a browser still
// signed in as the account keeps seeing them as the account's.
func (s *Server) ForgetDrafts(r *http.Request, a *store.Account) error {
	if a == nil {
		return nil
	}
	return s.store.DisownDrafts(r.Context(), a.Handle, AccountOwner(a))
}
