package account

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"

	"github.com/speedmatrix/speedmatrix/internal/accounts"
	"github.com/speedmatrix/speedmatrix/internal/i18n"
	"github.com/speedmatrix/speedmatrix/internal/store"
	"github.com/speedmatrix/speedmatrix/templates"
	"github.com/speedmatrix/speedmatrix/web/kit"
)

// SignupForm is GET /signup.
func (s *Handlers) SignupForm(w http.ResponseWriter, r *http.Request) error {
	if a, err := s.SignedInAccount(r); err != nil || a != nil {
		return kit.OrRedirect(err, "/account")
	}
	return s.renderAuth(w, r, http.StatusOK, "acct.signup.title", templates.SignupPage, templates.AuthForm{})
}

// SignupSubmit is POST /signup: a new account, signed in at once; with
// mail, a link to confirm the address first (accounts_confirm.go).
func (s *Handlers) SignupSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	handle, email := strings.TrimSpace(r.PostForm.Get("handle")), strings.TrimSpace(r.PostForm.Get("email"))
	password := r.PostForm.Get("password")
	f := templates.AuthForm{Values: map[string]string{"handle": handle, "email": email}}
	if !accounts.ValidHandle(handle) {
		f.Errors = append(f.Errors, l.T("acct.error.handle", nil))
	}
	if !accounts.ValidEmail(email) {
		f.Errors = append(f.Errors, l.T("acct.error.email", nil))
	}
	if !accounts.ValidPassword(password) {
		f.Errors = append(f.Errors, l.T("acct.error.password", map[string]any{"Min": accounts.MinPasswordLen}))
	}
	if len(f.Errors) == 0 {
		// The client's sign-ups are counted before the password is hashed.
		if !s.allowClient(w, r, s.auth.signups) {
			f.Errors = []string{l.T("acct.error.too_many_signups", nil)}
			return s.renderAuth(w, r, http.StatusTooManyRequests, "acct.signup.title", templates.SignupPage, f)
		}
		if s.mailer != nil {
			return s.signupByMail(w, r, f, store.PendingSignup{Handle: handle, Email: email}, password)
		}
		hash, err := accounts.HashPassword(r.Context(), password)
		if err != nil {
			return err
		}
		id, err := s.store.CreateAccount(r.Context(), handle, email, hash)
		switch {
		case errors.Is(err, store.ErrLookalike): // before ErrExists, which it is too
			f.Errors = append(f.Errors, l.T("acct.error.handle_lookalike", nil))
		case errors.Is(err, store.ErrExists):
			f.Errors = append(f.Errors, l.T("acct.error.taken", nil))
		case errors.Is(err, store.ErrRetired):
			f.Errors = append(f.Errors, l.T("acct.error.retired", nil))
		case err != nil:
			return err
		default:
			s.Log.Info("account created", "handle", handle)
			if err := s.StartSession(w, r, &store.Account{ID: id, Handle: handle}); err != nil {
				return err
			}
			http.Redirect(w, r, "/account", http.StatusSeeOther)
			return nil
		}
	}
	return s.renderAuth(w, r, http.StatusUnprocessableEntity, "acct.signup.title", templates.SignupPage, f)
}

// LoginForm is GET /login?next=….
func (s *Handlers) LoginForm(w http.ResponseWriter, r *http.Request) error {
	next := kit.LocalNext(r.URL.Query().Get("next"))
	if a, err := s.SignedInAccount(r); err != nil || a != nil {
		return kit.OrRedirect(err, next)
	}
	return s.renderAuth(w, r, http.StatusOK, "acct.login.title", templates.LoginPage, templates.AuthForm{Next: next})
}

// LoginSubmit is POST /login. Every failure says the same thing, and an
// unknown address costs the same hashing as a wrong password, so neither
// the words nor the time tell who has an account. Ten failures for one
// address or from one client answer 429 with Retry-After for a while:
// the attempt is counted before its password is checked, and given back
// when the password was right or could not be checked.
func (s *Handlers) LoginSubmit(w http.ResponseWriter, r *http.Request) error {
	if err := kit.ReadForm(w, r); err != nil {
		return err
	}
	l := i18n.FromContext(r.Context())
	email, password := strings.TrimSpace(r.PostForm.Get("email")), r.PostForm.Get("password")
	f := templates.AuthForm{Values: map[string]string{"email": email}, Next: kit.LocalNext(r.PostForm.Get("next"))}
	keys := s.loginKeys(r, email)
	if !allowed(w, s.auth.logins, keys...) {
		f.Errors = []string{l.T("acct.error.too_many", nil)}
		return s.renderAuth(w, r, http.StatusTooManyRequests, "acct.login.title", templates.LoginPage, f)
	}
	ok, a, err := s.checkLogin(r.Context(), email, password)
	if ok || err != nil {
		s.auth.logins.Refund(keys...)
	}
	switch {
	case err != nil:
		return err
	case !ok:
		f.Errors = []string{l.T("acct.error.login", nil)}
		return s.renderAuth(w, r, http.StatusUnauthorized, "acct.login.title", templates.LoginPage, f)
	case a.Suspended:
		f.Errors = []string{l.T("acct.error.suspended", nil)}
		return s.renderAuth(w, r, http.StatusForbidden, "acct.login.title", templates.LoginPage, f)
	}
	if err := s.StartSession(w, r, a); err != nil {
		return err
	}
	http.Redirect(w, r, f.Next, http.StatusSeeOther)
	return nil
}

// checkLogin reports whether password is that of the account of email,
// returning the account. An unknown address, or an account without a
// password, costs the same hashing as a wrong password.
func (s *Handlers) checkLogin(ctx context.Context, email, password string) (bool, *store.Account, error) {
	a, err := s.store.AccountByEmail(ctx, email)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return false, nil, err
	}
	if a == nil || a.PasswordHash == "" {
		return false, nil, accounts.CheckNobody(ctx, password)
	}
	ok, err := accounts.CheckPassword(ctx, a.PasswordHash, password)
	return ok, a, err
}

// Logout is POST /logout: this browser only.
func (s *Handlers) Logout(w http.ResponseWriter, r *http.Request) error {
	if err := s.EndSession(w, r); err != nil {
		return err
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
	return nil
}

// LogoutEverywhere is POST /account/sessions/revoke: every session of the
// account ends, this one too.
func (s *Handlers) LogoutEverywhere(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	if err := s.ForgetDrafts(r, a); err != nil {
		return err
	}
	if _, err := s.store.DeleteSessions(r.Context(), a.ID); err != nil {
		return err
	}
	s.SetCookie(w, r, kit.SessionCookie, "", time.Time{})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
	return nil
}

// AccountPage is GET /account.
func (s *Handlers) AccountPage(w http.ResponseWriter, r *http.Request) error {
	a, err := s.RequireAccount(w, r)
	if err != nil {
		return err
	}
	return s.renderAccount(w, r, http.StatusOK, a, "")
}

// renderAuth renders one of the account forms, never cached.
func (s *Handlers) renderAuth(w http.ResponseWriter, r *http.Request, status int, titleID string,
	page func(templates.Base, templates.AuthForm) templ.Component, f templates.AuthForm) error {
	l := i18n.FromContext(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	f.Mail, f.GitHub = s.mailer != nil, s.github != nil
	return kit.Render(w, r, status, page(s.PrivateBase(r, l.T(titleID, nil)), f))
}
