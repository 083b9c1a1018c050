package account

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// pendingCookie holds the secret of a GitHub sign-up that waits for its
// handle (pending_signups), for pendingLife.
const (
	pendingCookie = "signup_pending"
	pendingLife   = 15 * time.Minute
)

var (
	errSuspended = &kit.HTTPError{Status: http.StatusForbidden, Key: "acct.error.suspended"}
	// An address that has an account here is never linked by itself, even
	// when GitHub verified it: its owner signs in and links GitHub.
	errGitHubEmailTaken = &kit.HTTPError{Status: http.StatusConflict, Key: "acct.error.github_email_taken"}
	errGitHubElsewhere  = &kit.HTTPError{Status: http.StatusConflict, Key: "acct.error.github_elsewhere"}
)

// githubSignIn signs in the account GitHub user u is linked to, or makes
// one: its handle is u's login when free, else the user chooses one.
func (s *Handlers) githubSignIn(w http.ResponseWriter, r *http.Request, u githubUser, next string) error {
	ctx := r.Context()
	a, err := s.store.IdentityAccount(ctx, u.identity())
	switch {
	case err == nil && a.Suspended:
		return errSuspended
	case err == nil:
		return s.signInTo(w, r, a, next)
	case !errors.Is(err, store.ErrNotFound):
		return err
	}
	if u.Email != "" {
		if _, err := s.store.AccountByEmail(ctx, u.Email); err == nil {
			return errGitHubEmailTaken
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	if accounts.ValidHandle(u.Login) {
		id := u.identity()
		n := store.NewAccount{Handle: u.Login, Email: u.Email, EmailVerified: u.Email != "", Identity: &id}
		accountID, err := s.store.CreateConfirmedAccount(ctx, n)
		if err == nil {
			s.Log.Info("account created", "handle", n.Handle, "with", "github")
			return s.signInTo(w, r, &store.Account{ID: accountID, Handle: n.Handle}, next)
		}
		if !errors.Is(err, store.ErrExists) && !errors.Is(err, store.ErrRetired) {
			return err
		}
	}
	secret, err := accounts.NewSecret()
	if err != nil {
		return err
	}
	p := store.PendingSignup{Handle: u.Login, Email: u.Email, Provider: "github", UserID: u.identity().UserID}
	expires := time.Now().Add(pendingLife)
	if err := s.store.CreatePendingSignup(ctx, accounts.Hash(secret), p, expires); err != nil {
		return err
	}
	s.SetCookie(w, r, pendingCookie, secret, expires)
	http.Redirect(w, r, "/login/github/handle", http.StatusSeeOther)
	return nil
}

// signInTo starts a new session of a (never the old one) and goes to next.
func (s *Handlers) signInTo(w http.ResponseWriter, r *http.Request, a *store.Account, next string) error {
	if err := s.StartSession(w, r, a); err != nil {
		return err
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

// pendingGitHub is this browser's GitHub sign-up waiting for a handle.
func (s *Handlers) pendingGitHub(r *http.Request) (*store.PendingSignup, []byte, error) {
	c, err := r.Cookie(pendingCookie)
	if err != nil || c.Value == "" {
		return nil, nil, errConfirmLink
	}
	hash := accounts.Hash(c.Value)
	p, err := s.store.PendingSignupByHash(r.Context(), hash)
	if err != nil || p.Provider != "github" {
		return nil, nil, orConfirmErr(err)
	}
	return p, hash, nil
}

// GithubHandleForm is GET /login/github/handle: the GitHub login is taken
// here (or is no handle), so the new account needs another.
func (s *Handlers) GithubHandleForm(w http.ResponseWriter, r *http.Request) error {
	p, _, err := s.pendingGitHub(r)
	if err != nil {
		return err
	}
	f := templates.AuthForm{Values: map[string]string{"handle": p.Handle, "login": p.Handle}}
	return s.renderAuth(w, r, http.StatusOK, "acct.github.handle_title", templates.GitHubHandlePage, f)
}

// GithubHandleSubmit is POST /login/github/handle: the account, with the
// chosen handle, signed in.
func (s *Handlers) GithubHandleSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	p, hash, err := s.pendingGitHub(r)
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	handle := strings.TrimSpace(r.PostForm.Get("handle"))
	f := templates.AuthForm{Values: map[string]string{"handle": handle, "login": p.Handle}}
	id := store.Identity{Provider: p.Provider, UserID: p.UserID}
	var accountID int64
	if !accounts.ValidHandle(handle) {
		f.Errors = []string{l.T("acct.error.handle", nil)}
	} else {
		accountID, err = s.store.CreateConfirmedAccount(r.Context(), store.NewAccount{
			Handle: handle, Email: p.Email, EmailVerified: p.Email != "", Identity: &id})
		switch msg := handleRefused(l, err); {
		case msg != "":
			f.Errors = []string{msg}
		case err != nil:
			return err
		}
	}
	if len(f.Errors) > 0 {
		return s.renderAuth(w, r, http.StatusUnprocessableEntity, "acct.github.handle_title", templates.GitHubHandlePage, f)
	}
	if _, err := s.store.TakePendingSignup(r.Context(), hash); err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	s.SetCookie(w, r, pendingCookie, "", time.Time{})
	s.Log.Info("account created", "handle", handle, "with", "github")
	return s.signInTo(w, r, &store.Account{ID: accountID, Handle: handle}, "/account")
}

// githubLinkDone links GitHub user u to the signed-in account, unless u
// signs in another account already.
func (s *Handlers) githubLinkDone(w http.ResponseWriter, r *http.Request, u githubUser) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	other, err := s.store.IdentityAccount(r.Context(), u.identity())
	switch {
	case err == nil && other.ID != a.ID:
		return errGitHubElsewhere
	case err == nil: // linked already
	case !errors.Is(err, store.ErrNotFound):
		return err
	default:
		if err := s.store.LinkIdentity(r.Context(), a.ID, u.identity()); errors.Is(err, store.ErrExists) {
			return errGitHubElsewhere
		} else if err != nil {
			return err
		}
		s.Log.Info("GitHub linked", "handle", a.Handle)
	}
	http.Redirect(w, r, "/account", http.StatusSeeOther)
	return nil
}

// GithubUnlink is POST /account/github/unlink, refused when GitHub is the
// account's only way to sign in.
func (s *Handlers) GithubUnlink(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	err = s.store.UnlinkIdentity(r.Context(), a.ID, "github")
	switch {
	case errors.Is(err, store.ErrLastSignIn):
		return s.renderAccount(w, r, http.StatusConflict, a, l.T("acct.github.last", nil))
	case errors.Is(err, store.ErrNotFound):
	case err != nil:
		return err
	}
	return s.renderAccount(w, r, http.StatusOK, a, l.T("acct.github.unlinked", nil))
}
